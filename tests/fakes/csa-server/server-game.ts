/**
 * One game on the test CSA server, following what shogi-server did in the transcripts of tests/fixtures/csa/:
 * Game_Summary to both, AGREE/REJECT, START, moves echoed to both with `,T<units>` (comments stripped
 * and kept for the record), truncation and the time-up rule, illegal moves (and %CHUDAN, unknown `%`
 * commands) losing, a move sent out of turn queued and applied after the opponent's move, %TORYO,
 * %KACHI with the 27-point rule, sennichite, oute-sennichite, Max_Moves, and a disconnect counted as
 * resignation.
 */
import { makeSfen, parseSfen } from 'shogiops/sfen';
import type { Shogi } from 'shogiops/variant/shogi';
import { canDeclareWin, csaPositionToSfen, parseCsaMove, STANDARD_ROWS } from './rules.js';
import type { ServerTimeControl } from './time-rule.js';
import { ServerClock } from './time-rule.js';

export type Sign = '+' | '-';

/** The server's side of one connection, as a game sees it. */
export interface GamePeer {
  readonly name: string;
  send(line: string): void;
}

export interface ServerMove {
  readonly csa: string;
  readonly t: number;
  readonly comment?: string;
}

export interface FinishedServerGame {
  readonly id: string;
  readonly black: string;
  readonly white: string;
  readonly moves: readonly ServerMove[];
  /** `RESIGN`, `TIME_UP`, `ILLEGAL_MOVE`, `SENNICHITE`, `OUTE_SENNICHITE`, `JISHOGI`, `MAX_MOVES`, `DISCONNECT`, `REJECT`. */
  readonly reason: string;
  readonly winner: Sign | undefined;
  /** Who lost on time or by an illegal move, for quick assertions. */
  readonly loser: string | undefined;
}

export interface ServerGameOptions {
  readonly id: string;
  readonly gameName: string;
  readonly tc: ServerTimeControl;
  readonly maxMoves: number;
  /** `exact`: flag at the deadline; `lazy`: like shogi-server, only when the mover sends something or every `lazyCheckMs`. */
  readonly timeUpCheck: 'exact' | 'lazy';
  readonly lazyCheckMs: number;
  /** Delay before a queued out-of-turn move is applied, ms (shogi-server: about 500). */
  readonly offTurnDelayMs: number;
  /** Position block lines (board, hands, side to move) and moves already played, for a resumed game. */
  readonly setup?: { readonly positionLines: readonly string[]; readonly moves: readonly { readonly csa: string; readonly t: number }[] };
  readonly agreeTimeoutMs: number;
  /** Called when a player sends a move out of turn (it is queued, as shogi-server does). */
  readonly onOutOfTurn?: (player: string, line: string) => void;
}

const unitText = (ms: number): string => (ms % 60_000 === 0 ? `${ms / 60_000}min` : ms % 1000 === 0 ? `${ms / 1000}sec` : `${ms}msec`);

export class ServerGame {
  readonly moves: ServerMove[] = [];
  private readonly pos: Shogi;
  private readonly clock: ServerClock;
  private readonly agreed = new Set<Sign>();
  private started = false;
  private over = false;
  /** When the server sent the last move (or START), ms. */
  private lastSentAt = 0;
  private flagTimer: NodeJS.Timeout | undefined;
  private lazyTimer: NodeJS.Timeout | undefined;
  private agreeTimer: NodeJS.Timeout | undefined;
  private queued: { side: Sign; line: string } | undefined;
  private readonly history: { key: string; checkBy: Sign | undefined }[] = [];
  private readonly positionLines: string[];
  /** Set when a peer is frozen by a `silent` fault: the game no longer advances. */
  frozen = false;

  constructor(
    readonly opts: ServerGameOptions,
    readonly black: GamePeer,
    readonly white: GamePeer,
    private readonly onEnd: (g: FinishedServerGame) => void,
  ) {
    this.clock = new ServerClock(opts.tc);
    const lines = opts.setup?.positionLines ?? [...STANDARD_ROWS, '+'];
    this.positionLines = [...lines];
    const sfen = csaPositionToSfen(lines);
    this.pos = parseSfen('standard', sfen, false).unwrap();
    for (const m of opts.setup?.moves ?? []) {
      const md = parseCsaMove(this.pos, m.csa);
      if (md === undefined) throw new Error(`setup move ${m.csa} is not legal`);
      this.pos.play(md);
      // No clock charge: shogi-server sets both clocks to Total_Time at START, whatever the moves took.
      this.moves.push({ csa: m.csa, t: m.t });
      this.positionLines.push(`${m.csa},T${m.t}`);
    }
    this.history.push({ key: this.key(), checkBy: undefined });
  }

  get id(): string {
    return this.opts.id;
  }

  get isOver(): boolean {
    return this.over;
  }

  turn(): Sign {
    return this.pos.turn === 'sente' ? '+' : '-';
  }

  peer(side: Sign): GamePeer {
    return side === '+' ? this.black : this.white;
  }

  sideOf(peer: GamePeer): Sign {
    return peer.name === this.black.name ? '+' : '-';
  }

  /** The Game_Summary lines for one side, exactly as shogi-server formats them. */
  summaryFor(side: Sign): string[] {
    const tc = this.opts.tc;
    return [
      'BEGIN Game_Summary',
      'Protocol_Version:1.2',
      'Protocol_Mode:Server',
      'Format:Shogi 1.0',
      'Declaration:Jishogi 1.1',
      `Game_ID:${this.id}`,
      `Name+:${this.black.name}`,
      `Name-:${this.white.name}`,
      `Your_Turn:${side}`,
      'Rematch_On_Draw:NO',
      `To_Move:${this.turn()}`,
      `Max_Moves:${this.opts.maxMoves}`,
      'BEGIN Time',
      `Time_Unit:${unitText(tc.unitMs)}`,
      `Total_Time:${tc.total}`,
      `Byoyomi:${tc.byoyomi}`,
      ...(tc.increment > 0 ? [`Increment:${tc.increment}`] : []),
      `Least_Time_Per_Move:${tc.least}`,
      'END Time',
      'BEGIN Position',
      ...this.positionLines,
      'END Position',
      'END Game_Summary',
    ];
  }

  /** Sends the summaries (black's first) and starts the agree timeout. */
  offer(): void {
    for (const line of this.summaryFor('+')) this.black.send(line);
    for (const line of this.summaryFor('-')) this.white.send(line);
    this.agreeTimer = setTimeout(() => this.reject(undefined), this.opts.agreeTimeoutMs);
  }

  /** A line from a player of this game. Returns false when the line is not a game command. */
  handle(from: GamePeer, line: string): boolean {
    if (this.over) return true;
    // A frozen game no longer advances, but the other player's keep-alives are still answered.
    if (this.frozen) return line !== '';
    const side = this.sideOf(from);
    if (!this.started) {
      if (line === 'AGREE' || line.startsWith('AGREE ')) {
        this.agreed.add(side);
        if (this.agreed.size === 2) this.start();
        return true;
      }
      if (line === 'REJECT' || line.startsWith('REJECT ')) {
        this.reject(from);
        return true;
      }
      return false;
    }
    if (line === '') {
      // shogi-server checks the mover's clock whenever the mover sends something.
      if (side === this.turn()) this.checkTimeUp();
      return false;
    }
    if (/^[+-]\d{4}[A-Z]{2}/.test(line) || line.startsWith('%')) {
      if (side !== this.turn()) {
        const last = this.moves[this.moves.length - 1];
        if (last !== undefined && line.split(',')[0] === last.csa) return true; // a repeated move is ignored
        this.opts.onOutOfTurn?.(from.name, line);
        this.queued ??= { side, line };
        return true;
      }
      this.onMove(side, line);
      return true;
    }
    return false;
  }

  /** The player's connection is gone: a game in progress counts as resigned by it. */
  disconnected(peer: GamePeer): void {
    if (this.over) return;
    if (!this.started) {
      this.reject(peer);
      return;
    }
    const side = this.sideOf(peer);
    const other = side === '+' ? '-' : '+';
    this.peer(other).send('%TORYO');
    this.peer(other).send('#RESIGN');
    this.peer(other).send('#WIN');
    this.end('DISCONNECT', other, peer.name);
  }

  /** Stops all timers without a result (server shutdown). */
  abort(): void {
    this.over = true;
    this.clearTimers();
  }

  private start(): void {
    if (this.agreeTimer) clearTimeout(this.agreeTimer);
    this.started = true;
    this.black.send(`START:${this.id}`);
    this.white.send(`START:${this.id}`);
    this.lastSentAt = Date.now();
    this.armClock();
  }

  private reject(by: GamePeer | undefined): void {
    if (this.over) return;
    const name = by?.name ?? 'server';
    this.black.send(`REJECT:${this.id} by ${name}`);
    this.white.send(`REJECT:${this.id} by ${name}`);
    this.end('REJECT', undefined, undefined);
  }

  private armClock(): void {
    this.clearTimers();
    const side = this.turn();
    if (this.opts.timeUpCheck === 'exact') {
      const at = this.lastSentAt + this.clock.flagAtMs(side);
      this.flagTimer = setTimeout(() => this.checkTimeUp(), Math.max(0, at - Date.now()));
    } else {
      this.lazyTimer = setTimeout(() => {
        this.checkTimeUp();
        if (!this.over) this.armClock();
      }, this.opts.lazyCheckMs);
    }
  }

  private clearTimers(): void {
    if (this.flagTimer) clearTimeout(this.flagTimer);
    if (this.lazyTimer) clearTimeout(this.lazyTimer);
    this.flagTimer = undefined;
    this.lazyTimer = undefined;
  }

  private checkTimeUp(): boolean {
    if (this.over || this.frozen) return true;
    const side = this.turn();
    const t = this.clock.charge(Date.now() - this.lastSentAt);
    if (!this.clock.timeUp(side, t)) {
      if (this.opts.timeUpCheck === 'exact') this.armClock();
      return false;
    }
    this.peer(side).send('#TIME_UP');
    this.peer(side).send('#LOSE');
    const other = side === '+' ? '-' : '+';
    this.peer(other).send('#TIME_UP');
    this.peer(other).send('#WIN');
    this.end('TIME_UP', other, this.peer(side).name);
    return true;
  }

  private onMove(side: Sign, line: string): void {
    if (this.checkTimeUp()) return;
    const t = this.clock.charge(Date.now() - this.lastSentAt);
    const other: Sign = side === '+' ? '-' : '+';
    const [body, ...rest] = line.split(',');
    const comment = rest.join(',');
    if (body === '%TORYO') {
      this.both('%TORYO');
      this.both('#RESIGN');
      this.result(other, 'RESIGN');
      return;
    }
    if (body === '%KACHI') {
      this.both(`%KACHI,T${t}`);
      this.both('%KACHI');
      if (canDeclareWin(this.pos)) {
        this.both('#JISHOGI');
        this.result(side, 'JISHOGI');
      } else {
        this.both('#ILLEGAL_MOVE');
        this.result(other, 'ILLEGAL_MOVE');
      }
      return;
    }
    const md = body!.startsWith('%') ? undefined : parseCsaMove(this.pos, body!);
    if (md === undefined || (rest.length > 0 && !comment.startsWith("'"))) {
      // %CHUDAN, unknown % commands and illegal moves all lose for the sender.
      this.both('#ILLEGAL_MOVE');
      this.result(other, 'ILLEGAL_MOVE');
      return;
    }
    this.pos.play(md);
    this.clock.apply(side, t);
    this.moves.push({ csa: body!, t, ...(comment !== '' ? { comment } : {}) });
    const echo = `${body!},T${t}`;
    this.peer(side).send(echo);
    this.peer(other).send(echo);
    this.lastSentAt = Date.now();
    this.history.push({ key: this.key(), checkBy: this.pos.isCheck() ? side : undefined });
    if (this.checkRepetition()) return;
    if (this.opts.maxMoves > 0 && this.pos.moveNumber - 1 >= this.opts.maxMoves) {
      this.both('#MAX_MOVES');
      this.both('#CENSORED');
      this.end('MAX_MOVES', undefined, undefined);
      return;
    }
    this.armClock();
    const q = this.queued;
    if (q && q.side === this.turn()) {
      this.queued = undefined;
      setTimeout(() => {
        if (!this.over && !this.frozen) this.onMove(q.side, q.line);
      }, this.opts.offTurnDelayMs);
    }
  }

  private checkRepetition(): boolean {
    const now = this.history[this.history.length - 1]!;
    const same = this.history.map((h, i) => (h.key === now.key ? i : -1)).filter((i) => i >= 0);
    if (same.length < 4) return false;
    // Oute-sennichite: every move of one side since the first occurrence gave check; that side loses.
    const span = this.history.slice(same[0]! + 1);
    for (const checker of ['+', '-'] as const) {
      const byChecker = span.filter((_, i) => {
        // Position i+first+1 arose from a move by the side that was to move at position i+first.
        const mover = this.sideToMoveAt(same[0]! + i);
        return mover === checker;
      });
      if (byChecker.length > 0 && byChecker.every((h) => h.checkBy === checker)) {
        this.both('#OUTE_SENNICHITE');
        this.result(checker === '+' ? '-' : '+', 'OUTE_SENNICHITE');
        return true;
      }
    }
    this.both('#SENNICHITE');
    this.both('#DRAW');
    this.end('SENNICHITE', undefined, undefined);
    return true;
  }

  /** The side to move at history index i (index 0 is the position after the setup moves). */
  private sideToMoveAt(i: number): Sign {
    const last = this.history.length - 1;
    const nowTurn = this.turn();
    return (last - i) % 2 === 0 ? nowTurn : nowTurn === '+' ? '-' : '+';
  }

  private key(): string {
    return makeSfen(this.pos).split(' ').slice(0, 3).join(' ');
  }

  private both(line: string): void {
    this.black.send(line);
    this.white.send(line);
  }

  private result(winner: Sign, reason: string): void {
    this.peer(winner).send('#WIN');
    const loser: Sign = winner === '+' ? '-' : '+';
    this.peer(loser).send('#LOSE');
    this.end(reason, winner, this.peer(loser).name);
  }

  private end(reason: string, winner: Sign | undefined, loser: string | undefined): void {
    if (this.over) return;
    this.over = true;
    this.clearTimers();
    if (this.agreeTimer) clearTimeout(this.agreeTimer);
    this.onEnd({ id: this.id, black: this.black.name, white: this.white.name, moves: [...this.moves], reason, winner, loser });
  }
}
