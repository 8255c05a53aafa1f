/**
 * A local CSA server for tests, reproducing what the official shogi-server did in tests/fixtures/csa/:
 *
 * - `LOGIN <name> <password>` → `LOGIN:<name> OK` / `LOGIN:incorrect` (a 4-token line that is not x1 also
 *   gets the usage hint); x1 mode (`##[LOGIN] +OK x1`, `%%VERSION`, `%%WHO`, `%%LIST`, `%%GAME`);
 *   `LOGOUT` → `LOGOUT:completed`; a blank line is answered with a blank line;
 * - CSA-mode password `<game>,<trip>`: direct game names pair at once with a waiting player of the same
 *   name; `floodgate-…` names wait for the scheduled pairing, which skips unrated logins (no trip) and
 *   never pairs two `_human` names; floodgate refuses a colour request;
 * - the game itself (server-game.ts), and the socket closed after a game in CSA mode;
 * - faults for the next game of a player: the connection dropped, dropped without the server noticing
 *   for a while (re-logins refused meanwhile), the server going silent (it stops reading and answering,
 *   keep-alives included), and garbage lines.
 *
 * The time unit is configurable (`Time_Unit:10msec` scales a 300+10F game down to 3 s + 0.1 s) so that
 * whole games run in seconds while the truncation and time-up rules stay the server's.
 */
import { createServer } from 'node:net';
import type { Server, Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { createHash } from 'node:crypto';
import type { FinishedServerGame, GamePeer, ServerGameOptions } from './server-game.js';
import { ServerGame } from './server-game.js';
import { timeControlFromGameName } from './time-rule.js';

export interface TestServerOptions {
  /** 0 picks a free port. */
  readonly port?: number;
  /** First part of Game_IDs (`csatest`). */
  readonly event?: string;
  /** Length of one time unit, ms (1000 = `1sec`). */
  readonly unitMs?: number;
  readonly maxMoves?: number;
  readonly leastTimePerMove?: number;
  readonly timeUpCheck?: 'exact' | 'lazy';
  readonly lazyCheckMs?: number;
  readonly offTurnDelayMs?: number;
  /** Floodgate pairing interval, ms (the real one pairs every 30 minutes, at :00 and :30). */
  readonly floodgateIntervalMs?: number;
  /** Colours of a pairing: the first to wait is black, or each player alternates (black to whoever had it less). */
  readonly colours?: 'first-black' | 'alternate';
  /** Close the connections this long after a game in CSA mode unless the player logs out first, ms. */
  readonly closeAfterGameMs?: number;
  readonly agreeTimeoutMs?: number;
}

/** A fault applied to the next game of the named player (or any player). */
export type Fault =
  | { readonly kind: 'drop'; readonly player?: string; readonly afterPlies: number }
  | { readonly kind: 'silent'; readonly player?: string; readonly afterPlies: number }
  /**
   * The player's connection breaks, but the server notices only `holdMs` later (a half-open socket):
   * until then the name counts as logged in and in its game, so a new LOGIN of it gets `LOGIN:incorrect`
   * as shogi-server answers.
   */
  | { readonly kind: 'half-open'; readonly player?: string; readonly afterPlies: number; readonly holdMs: number }
  | { readonly kind: 'garbage'; readonly player?: string; readonly afterPlies: number; readonly lines?: readonly string[] };

const GARBAGE = ['\u0001\u0002GARBAGE', '+99', '#NOT_A_RESULT', 'LOGIN:someone OK', '%%%', 'BEGIN Nothing'];

class Conn implements GamePeer {
  name = '';
  password = '';
  x1 = false;
  gameName: string | undefined;
  /** Rating identity shown by %%WHO: name+md5(trip). */
  trip: string | undefined;
  loggedIn = false;
  waitingSince: number | undefined;
  game: ServerGame | undefined;
  silent = false;
  closed = false;
  /** Set by a `half-open` fault: the server learns of the closed socket only this long after it closed, ms. */
  noticeCloseAfterMs = 0;
  private buffer = '';
  readonly received: string[] = [];

  constructor(
    readonly socket: Socket,
    private readonly onLine: (c: Conn, line: string) => void,
    private readonly onGone: (c: Conn) => void,
  ) {
    socket.setEncoding('utf8');
    socket.setNoDelay(true);
    socket.on('data', (chunk: string) => {
      if (this.silent) return;
      this.buffer += chunk;
      let i: number;
      while ((i = this.buffer.indexOf('\n')) >= 0) {
        const line = this.buffer.slice(0, i).replace(/\r$/, '');
        this.buffer = this.buffer.slice(i + 1);
        this.received.push(line);
        this.onLine(this, line);
      }
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      const gone = (): void => {
        this.closed = true;
        this.onGone(this);
      };
      if (this.noticeCloseAfterMs > 0) setTimeout(gone, this.noticeCloseAfterMs);
      else gone();
    });
  }

  send(line: string): void {
    if (this.closed || this.silent) return;
    this.socket.write(`${line}\n`);
  }

  close(): void {
    if (!this.closed) this.socket.end();
  }
}

export class CsaTestServer {
  private server: Server | undefined;
  private readonly conns = new Set<Conn>();
  private readonly opts: Required<TestServerOptions>;
  private pairings = 0;
  private readonly blackCount = new Map<string, number>();
  private lastStamp = '';
  private floodgateTimer: NodeJS.Timeout | undefined;
  private faults: Fault[] = [];
  private readonly games = new Set<ServerGame>();
  /** Every finished game, in order. */
  readonly finished: FinishedServerGame[] = [];
  /** Names that logged in, in order (re-logins included). */
  readonly logins: string[] = [];

  /** Resolves once `name` has logged in (one more time than when called). */
  async waitForLogin(name: string, timeoutMs = 10_000): Promise<void> {
    const before = this.logins.filter((n) => n === name).length;
    const deadline = Date.now() + timeoutMs;
    while (this.logins.filter((n) => n === name).length === before) {
      if (Date.now() > deadline) throw new Error(`${name} did not log in within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 5));
    }
  }
  /** Moves sent out of turn, as `name: line`. */
  readonly outOfTurn: string[] = [];
  /** When each player's blank lines arrived (ms timestamps), by name. */
  readonly blankLines = new Map<string, number[]>();
  /** Setup (position and moves already played) for the next game. */
  nextSetup: ServerGameOptions['setup'] | undefined;
  private finishWaiters: { n: number; resolve: () => void }[] = [];

  constructor(opts: TestServerOptions = {}) {
    this.opts = {
      port: 0,
      event: 'csatest',
      unitMs: 1000,
      maxMoves: 256,
      leastTimePerMove: 0,
      timeUpCheck: 'exact',
      lazyCheckMs: 60_000,
      offTurnDelayMs: 500,
      floodgateIntervalMs: 30 * 60_000,
      colours: 'alternate',
      closeAfterGameMs: 200,
      agreeTimeoutMs: 120_000,
      ...opts,
    };
  }

  /** Starts listening on 127.0.0.1; resolves with the port. */
  async start(): Promise<number> {
    this.server = createServer((socket) => {
      const c = new Conn(
        socket,
        (conn, line) => this.onLine(conn, line),
        (conn) => this.onGone(conn),
      );
      this.conns.add(c);
    });
    await new Promise<void>((resolve) => this.server!.listen(this.opts.port, '127.0.0.1', resolve));
    this.floodgateTimer = setInterval(() => this.pairFloodgate(), this.opts.floodgateIntervalMs);
    return (this.server.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    if (this.floodgateTimer) clearInterval(this.floodgateTimer);
    for (const g of this.games) g.abort();
    for (const c of this.conns) c.socket.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** Queues a fault for the next game of a player. */
  inject(fault: Fault): void {
    this.faults.push(fault);
  }

  /** Resolves once `n` games in total have finished. */
  waitForGames(n: number): Promise<void> {
    if (this.finished.length >= n) return Promise.resolve();
    return new Promise((resolve) => this.finishWaiters.push({ n, resolve }));
  }

  /** Names currently logged in and waiting for a game. */
  waiting(): string[] {
    return [...this.conns].filter((c) => c.waitingSince !== undefined).map((c) => c.name);
  }

  /** Runs the floodgate pairing now (tests may call it instead of waiting for the schedule). */
  pairFloodgate(): void {
    const byGame = new Map<string, Conn[]>();
    for (const c of this.conns) {
      if (c.waitingSince === undefined || c.gameName === undefined || !isFloodgate(c.gameName)) continue;
      if (c.trip === undefined) continue; // unrated: "Nobody found"
      const list = byGame.get(c.gameName) ?? [];
      list.push(c);
      byGame.set(c.gameName, list);
    }
    for (const [gameName, list] of byGame) {
      list.sort((a, b) => a.waitingSince! - b.waitingSince!);
      while (list.length >= 2) {
        const a = list.shift()!;
        const j = list.findIndex((b) => !(a.name.endsWith('_human') && b.name.endsWith('_human')));
        if (j < 0) break;
        const b = list.splice(j, 1)[0]!;
        this.pair(gameName, a, b);
      }
    }
  }

  private onLine(c: Conn, line: string): void {
    if (line === '' && c.loggedIn) {
      const list = this.blankLines.get(c.name) ?? [];
      list.push(Date.now());
      this.blankLines.set(c.name, list);
    }
    if (!c.loggedIn) return this.onLogin(c, line);
    if (c.game && !c.game.isOver) {
      if (c.game.handle(c, line)) return;
    }
    if (line === '') {
      c.send('');
      return;
    }
    if (line === 'LOGOUT') {
      c.send('LOGOUT:completed');
      c.waitingSince = undefined;
      c.close();
      return;
    }
    if (c.x1 && line.startsWith('%%')) return this.onX1(c, line);
    // Anything else outside a game is ignored, as shogi-server does with unknown commands while waiting.
  }

  private onLogin(c: Conn, line: string): void {
    if (line === '') {
      c.send('');
      return;
    }
    const t = line.split(' ');
    if (t[0] !== 'LOGIN') return;
    if (t.length === 4 && t[3] !== 'x1') {
      c.send('LOGIN:incorrect');
      c.send("type 'LOGIN name password' or 'LOGIN name password x1'");
      return;
    }
    if (t.length !== 3 && t.length !== 4) {
      c.send('LOGIN:incorrect');
      return;
    }
    const name = t[1]!;
    const password = t[2]!;
    if (!/^[\w@.-]{1,32}$/.test(name)) {
      c.send('LOGIN:incorrect');
      return;
    }
    const existing = [...this.conns].find((o) => o !== c && o.loggedIn && !o.closed && o.name === name);
    if (existing) {
      if (existing.password !== password || existing.game) {
        c.send('LOGIN:incorrect');
        return;
      }
      existing.socket.destroy(); // same password, not in a game: the old session is kicked
    }
    c.name = name;
    c.password = password;
    c.loggedIn = true;
    c.x1 = t.length === 4;
    this.logins.push(name);
    c.send(`LOGIN:${name} OK`);
    if (c.x1) {
      c.trip = password;
      c.send('##[LOGIN] +OK x1');
      return;
    }
    const comma = password.indexOf(',');
    const gameName = comma < 0 ? password : password.slice(0, comma);
    c.trip = comma < 0 ? undefined : password.slice(comma + 1);
    this.join(c, gameName);
  }

  private onX1(c: Conn, line: string): void {
    const [cmd, ...args] = line.split(' ');
    switch (cmd) {
      case '%%VERSION':
        c.send('##[VERSION] Shogi Server revision 20201206');
        c.send('##[VERSION] +OK');
        return;
      case '%%WHO':
        for (const o of this.conns) {
          if (o.loggedIn && !o.closed) c.send(`##[WHO] ${o.name}+${md5(o.trip ?? '')} ${o.x1 ? 'x1' : 'csa'} ${o.game ? 'game' : 'connected'}`);
        }
        c.send('##[WHO] +OK');
        return;
      case '%%LIST':
        c.send('##[LIST] +OK');
        return;
      case '%%GAME': {
        const gameName = args[0] ?? '';
        const turn = args[1] ?? '*';
        if (isFloodgate(gameName) && turn !== '*') {
          c.send(`##[ERROR] You are not allowed to specify TEBAN ${turn} for the game ${gameName}`);
          return;
        }
        // x1 takes the colour as the argument (`+`, `-`, `*`), not as a game-name suffix: a name with
        // `-B`/`-W` is not a game name there (shogi-server: `##[ERROR] bad game name`, issue 48).
        if (/-[BWbw]$/.test(gameName) || timeControlFromGameName(gameName, this.opts.unitMs, this.opts.leastTimePerMove) === undefined) {
          c.send(`##[ERROR] bad game name: ${gameName}`);
          return;
        }
        this.join(c, turn === '+' ? `${gameName}-B` : turn === '-' ? `${gameName}-W` : gameName);
        return;
      }
      default:
        c.send(`##[ERROR] unknown command ${cmd}`);
    }
  }

  private join(c: Conn, gameName: string): void {
    c.gameName = gameName;
    c.waitingSince = Date.now() + this.pairings * 0.001;
    if (isFloodgate(gameName)) {
      if (/-[BWbw]$/.test(gameName)) {
        c.send(`##[ERROR] You are not allowed to specify TEBAN for the game ${gameName}`);
        c.waitingSince = undefined;
      }
      return;
    }
    // The colour suffix is case-insensitive (shogi-server accepts `-b`/`-w` too).
    const base = gameName.replace(/-[BWbw]$/, '');
    const other = [...this.conns].find(
      (o) => o !== c && o.waitingSince !== undefined && o.gameName !== undefined && o.gameName.replace(/-[BWbw]$/, '') === base,
    );
    if (other) this.pair(base, other, c);
  }

  private pair(gameName: string, first: Conn, second: Conn): void {
    const tc = timeControlFromGameName(gameName, this.opts.unitMs, this.opts.leastTimePerMove);
    if (!tc) {
      first.send(`##[ERROR] bad game name ${gameName}`);
      second.send(`##[ERROR] bad game name ${gameName}`);
      return;
    }
    // `alternate`: whoever has had black less often gets it (ties: the first to wait).
    const blacks = (c: Conn): number => this.blackCount.get(c.name) ?? 0;
    let [black, white] = this.opts.colours === 'alternate' && blacks(second) < blacks(first) ? [second, first] : [first, second];
    // An explicit colour request (`-B`/`-W`, non-floodgate only) wins.
    const asks = (c: Conn, colour: 'B' | 'W'): boolean => c.gameName?.toUpperCase().endsWith(`-${colour}`) === true;
    if (asks(first, 'W') || asks(second, 'B')) [black, white] = [second, first];
    if (asks(first, 'B') || asks(second, 'W')) [black, white] = [first, second];
    this.pairings++;
    this.blackCount.set(black.name, blacks(black) + 1);
    black.waitingSince = undefined;
    white.waitingSince = undefined;
    const id = `${this.opts.event}+${gameName}+${black.name}+${white.name}+${this.stamp()}`;
    const setup = this.nextSetup;
    this.nextSetup = undefined;
    let game: ServerGame;
    try {
      game = new ServerGame(
        {
          id,
          gameName,
          tc,
          maxMoves: this.opts.maxMoves,
          timeUpCheck: this.opts.timeUpCheck,
          lazyCheckMs: this.opts.lazyCheckMs,
          offTurnDelayMs: this.opts.offTurnDelayMs,
          agreeTimeoutMs: this.opts.agreeTimeoutMs,
          onOutOfTurn: (name, line) => this.outOfTurn.push(`${name}: ${line}`),
          ...(setup ? { setup } : {}),
        },
        this.faultyPeer(black),
        this.faultyPeer(white),
        (g) => this.onGameEnd(g, black, white),
      );
    } catch (e) {
      // A bad test setup: say so on both connections instead of hanging the test.
      for (const c of [black, white]) {
        c.send(`##[ERROR] cannot set up the game: ${String(e)}`);
        c.close();
      }
      return;
    }
    black.game = game;
    white.game = game;
    this.games.add(game);
    game.offer();
  }

  /** Wraps a connection so the faults queued for its player fire after the given number of plies. */
  private faultyPeer(c: Conn): GamePeer {
    const i = this.faults.findIndex((f) => f.player === undefined || f.player === c.name);
    if (i < 0) return c;
    const fault = this.faults.splice(i, 1)[0]!;
    let echoes = 0;
    let fired = false;
    return {
      name: c.name,
      send(line: string): void {
        c.send(line);
        if (fired || !/^[+-]\d{4}[A-Z]{2},T\d+$/.test(line)) return;
        echoes++;
        if (echoes < fault.afterPlies) return;
        fired = true;
        if (fault.kind === 'drop') {
          setImmediate(() => c.socket.destroy());
        } else if (fault.kind === 'half-open') {
          c.noticeCloseAfterMs = fault.holdMs;
          c.silent = true;
          setImmediate(() => c.socket.destroy());
        } else if (fault.kind === 'silent') {
          c.silent = true;
          if (c.game) c.game.frozen = true;
        } else {
          for (const g of fault.lines ?? GARBAGE) c.send(g);
        }
      },
    };
  }

  private onGameEnd(g: FinishedServerGame, black: Conn, white: Conn): void {
    this.finished.push(g);
    for (const game of this.games) if (game.id === g.id) this.games.delete(game);
    for (const c of [black, white]) {
      c.game = undefined;
      if (!c.x1) setTimeout(() => c.close(), this.opts.closeAfterGameMs);
    }
    this.finishWaiters = this.finishWaiters.filter((w) => {
      if (this.finished.length >= w.n) {
        w.resolve();
        return false;
      }
      return true;
    });
  }

  private onGone(c: Conn): void {
    this.conns.delete(c);
    c.waitingSince = undefined;
    if (c.game && !c.game.isOver) c.game.disconnected(c);
  }

  /** yyyymmddHHMMSS, bumped by a second when two games would share one (ids stay unique). */
  private stamp(): string {
    let d = new Date();
    let s = fmtStamp(d);
    while (s <= this.lastStamp) {
      d = new Date(d.getTime() + 1000);
      s = fmtStamp(d);
    }
    this.lastStamp = s;
    return s;
  }
}

const isFloodgate = (gameName: string): boolean => /^floodgate-\d+-\d+F?(-[BW])?$/.test(gameName);
const md5 = (s: string): string => createHash('md5').update(s).digest('hex');
const p2 = (n: number): string => String(n).padStart(2, '0');
const fmtStamp = (d: Date): string =>
  `${d.getFullYear()}${p2(d.getMonth() + 1)}${p2(d.getDate())}${p2(d.getHours())}${p2(d.getMinutes())}${p2(d.getSeconds())}`;
