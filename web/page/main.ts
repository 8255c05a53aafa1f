/**
 * The page: a person plays Kishi at chess (chessground) or shogi (shogiground). The server is the
 * referee; this page only draws what it says and offers the moves chessops/shogiops find legal
 * (legal-move hints, promotion choice, drops). Bundled by src/web/page-bundle.ts with esbuild.
 *
 * The current game is kept in the tab's sessionStorage, so a reload takes it back (`join`); an address
 * `/?game=<id>` asks for that game.
 * `#play` carries data attributes (game, position, ply, turn, result) for styling and for the
 * browser test, which reads them to choose its moves.
 */
import { Chessground } from '@lichess-org/chessground';
import type { Api as CgApi } from '@lichess-org/chessground/api';
import type { Key as CgKey } from '@lichess-org/chessground/types';
import { Chess } from 'chessops/chess';
import { chessgroundDests } from 'chessops/compat';
import { parseFen } from 'chessops/fen';
import { makeSanAndPlay } from 'chessops/san';
import { parseUci } from 'chessops/util';
import { Shogiground } from 'shogiground';
import type { Api as SgApi } from 'shogiground/api';
import type { Key as SgKey, Piece as SgPiece } from 'shogiground/types';
import { checksSquareNames, shogigroundDropDests, shogigroundMoveDests, usiToSquareNames } from 'shogiops/compat';
import { makeWesternMoveOrDrop } from 'shogiops/notation/western';
import { parseSfen } from 'shogiops/sfen';
import type { Role as ShogiRole } from 'shogiops/types';
import { parseSquareName, parseUsi } from 'shogiops/util';
import { pieceCanPromote, pieceForcePromote } from 'shogiops/variant/util';
import type { Shogi } from 'shogiops/variant/shogi';

type Side = 'first' | 'second';
type GameKind = 'chess' | 'shogi';
type Score = { cp: number } | { mate: number };
interface Info { depth: number; score: Score; nodes: number; nps: number; timeMs: number; pv: string[] }
interface Snapshot {
  id: string;
  game: GameKind;
  humanSide: Side;
  engine: string;
  control: { initialMs: number; incrementMs: number; byoyomiMs: number };
  moves: string[];
  position: string;
  turn: Side;
  clock: { firstMs: number; secondMs: number; byoyomiLeftMs?: number; running?: Side };
  result?: { winner?: Side; reason: string };
  takebacksLeft: number;
  drawOffered: boolean;
  lastInfo?: Info;
}
type ServerMessage =
  | { t: 'hello'; levels: number }
  | { t: 'state'; state: Snapshot }
  | { t: 'info'; ply: number; info: Info }
  | { t: 'notice'; text: string }
  | { t: 'error'; text: string };

const $ = <T extends HTMLElement = HTMLElement>(id: string): T => document.getElementById(id) as T;

let socket: WebSocket | undefined;
let snap: Snapshot | undefined;
let receivedAt = 0;
let cg: CgApi | undefined;
let sg: SgApi | undefined;
let boardGame: GameKind | undefined;
let pendingPromotion: ((role: string | undefined) => void) | undefined;

// ---------- connection ----------

function connect(): void {
  const ws = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`);
  socket = ws;
  ws.onopen = () => {
    $('conn').textContent = 'connected';
    // A game named in the address (`/?game=<id>`, e.g. from another tab) or this tab's current game.
    const id = new URLSearchParams(location.search).get('game') ?? sessionStorage.getItem('kishi-game');
    if (id) send({ t: 'join', id });
  };
  ws.onclose = () => {
    $('conn').textContent = 'disconnected; reconnecting…';
    setTimeout(connect, 1000);
  };
  ws.onmessage = (e) => onMessage(JSON.parse(String(e.data)) as ServerMessage);
}

function send(m: object): void {
  if (socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify(m));
  else toast('not connected to Kishi', true);
}

function onMessage(m: ServerMessage): void {
  switch (m.t) {
    case 'hello':
      return;
    case 'state':
      snap = m.state;
      receivedAt = performance.now();
      sessionStorage.setItem('kishi-game', m.state.id);
      render();
      return;
    case 'info':
      if (snap && m.ply === snap.moves.length) showInfo(m.info, m.ply);
      return;
    case 'notice':
      toast(m.text, false);
      return;
    case 'error':
      toast(m.text, true);
      if (!snap || snap.result) sessionStorage.removeItem('kishi-game');
      return;
  }
}

let toastTimer: number | undefined;
function toast(text: string, error: boolean): void {
  const el = $('toast');
  el.textContent = text;
  el.className = `show${error ? ' error' : ''}`;
  el.dataset.kind = error ? 'error' : 'notice';
  clearTimeout(toastTimer);
  toastTimer = window.setTimeout(() => (el.className = ''), 4000);
}

// ---------- setup form ----------

function setupForm(): void {
  const form = $<HTMLFormElement>('setup');
  const sync = (): void => {
    const game = (form.elements.namedItem('game') as HTMLSelectElement).value as GameKind;
    form.className = `card ${game}`;
    for (const o of Array.from((form.elements.namedItem('side') as HTMLSelectElement).options)) {
      const label = o.dataset[game];
      if (label) o.textContent = label;
    }
    $('level-out').textContent = (form.elements.namedItem('level') as HTMLInputElement).value;
  };
  form.addEventListener('input', sync);
  sync();
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const v = (n: string): string => (form.elements.namedItem(n) as HTMLInputElement).value;
    const game = v('game') as GameKind;
    send({
      t: 'new',
      game,
      side: v('side'),
      engine: v('engine'),
      level: Number(v('level')),
      name: v('name'),
      control: {
        initialMs: Math.round(Number(v('minutes')) * 60_000),
        incrementMs: game === 'chess' ? Math.round(Number(v('increment')) * 1000) : 0,
        byoyomiMs: game === 'shogi' ? Math.round(Number(v('byoyomi')) * 1000) : 0,
      },
    });
  });
  $('resign').onclick = () => send({ t: 'resign' });
  $('draw').onclick = () => send({ t: 'draw' });
  $('takeback').onclick = () => send({ t: 'takeback' });
  $('new').onclick = () => {
    sessionStorage.removeItem('kishi-game');
    snap = undefined;
    $('play').hidden = true;
    $('setup').hidden = false;
  };
}

// ---------- rendering ----------

const colorOf = (game: GameKind, side: Side): string => (game === 'chess' ? (side === 'first' ? 'white' : 'black') : side === 'first' ? 'sente' : 'gote');

const REASONS: Record<string, string> = {
  checkmate: 'checkmate',
  stalemate: 'stalemate',
  'insufficient-material': 'insufficient material',
  'fifty-moves': 'fifty-move rule',
  'threefold-repetition': 'threefold repetition',
  sennichite: 'sennichite (fourfold repetition)',
  'perpetual-check': 'perpetual check',
  'entering-king': 'entering-king declaration',
  'max-moves': 'move limit',
  timeout: 'time out',
  resign: 'resignation',
  'draw-agreed': 'draw agreed',
  abandoned: 'abandoned',
};

function render(): void {
  const s = snap;
  if (!s) return;
  $('setup').hidden = true;
  $('play').hidden = false;
  const play = $('play');
  play.dataset.game = s.game;
  play.dataset.id = s.id;
  play.dataset.position = s.position;
  play.dataset.ply = String(s.moves.length);
  play.dataset.turn = s.turn;
  play.dataset.human = s.humanSide;
  if (s.result) play.dataset.result = s.result.reason;
  else delete play.dataset.result;
  ensureBoard(s);
  if (s.game === 'chess') renderChess(s);
  else renderShogi(s);
  const other: Side = s.humanSide === 'first' ? 'second' : 'first';
  $('name-bottom').textContent = `You (${colorOf(s.game, s.humanSide)})`;
  $('name-top').textContent = `Kishi (${colorOf(s.game, other)})`;
  $('engine-name').textContent = s.engine;
  const mine = s.turn === s.humanSide;
  const status = $('status');
  if (s.result) {
    const who = s.result.winner === undefined ? 'Draw' : s.result.winner === s.humanSide ? 'You win' : 'Kishi wins';
    status.textContent = `${who} by ${REASONS[s.result.reason] ?? s.result.reason}`;
    status.className = 'status over';
  } else {
    status.textContent = mine ? (s.drawOffered ? 'Your move; Kishi offers a draw' : 'Your move') : 'Kishi is thinking…';
    status.className = 'status';
  }
  ($('takeback') as HTMLButtonElement).disabled = !!s.result || s.takebacksLeft <= 0;
  ($('takeback') as HTMLButtonElement).title = `${s.takebacksLeft} left`;
  ($('draw') as HTMLButtonElement).disabled = !!s.result;
  $('draw').textContent = s.drawOffered && !s.result ? 'Accept draw' : 'Offer draw';
  ($('resign') as HTMLButtonElement).disabled = !!s.result;
  $('new').hidden = !s.result;
  renderMoves(s);
  // Kishi's last search, from the position before its last move (live `info` replaces it while it thinks).
  if (s.lastInfo && s.turn === s.humanSide && s.moves.length > 0) showInfo(s.lastInfo, s.moves.length - 1);
  const dl = $('downloads');
  const kinds = s.game === 'chess' ? ['pgn'] : ['kif', 'csa'];
  dl.innerHTML = kinds.map((k) => `<a href="/games/${s.id}.${k}" download data-kind="${k}">${k.toUpperCase()}</a>`).join('');
  tick();
}

function ensureBoard(s: Snapshot): void {
  if (boardGame === s.game && (cg || sg)) return;
  cg?.destroy();
  sg?.destroy();
  cg = sg = undefined;
  const box = $('board-box');
  box.className = s.game;
  const el = document.createElement('div');
  el.id = 'board';
  $('board').replaceWith(el);
  boardGame = s.game;
  if (s.game === 'chess') {
    cg = Chessground(el, {
      orientation: s.humanSide === 'first' ? 'white' : 'black',
      movable: { free: false, showDests: true, events: { after: onChessMove } },
      premovable: { enabled: false },
      animation: { duration: 150 },
    });
  } else {
    sg = Shogiground(
      {
        orientation: s.humanSide === 'first' ? 'sente' : 'gote',
        scaleDownPieces: false,
        hands: { inlined: true },
        coordinates: { enabled: true, files: 'numeric', ranks: 'engine' },
        movable: { free: false, showDests: true, events: { after: onShogiMove } },
        droppable: { free: false, showDests: true, events: { after: onShogiDrop } },
        premovable: { enabled: false },
        predroppable: { enabled: false },
        promotion: {
          promotesTo: (r) => PROMOTES_TO[r],
          unpromotesTo: (r) => UNPROMOTES_TO[r],
          movePromotionDialog: (orig, dest) => promotionChoice(orig, dest) === 'choose',
          forceMovePromotion: (orig, dest) => promotionChoice(orig, dest) === 'must',
        },
        animation: { duration: 150 },
      },
      { board: el },
    );
  }
}

// ---------- chess ----------

function chessPosition(fen: string): Chess | undefined {
  const setup = parseFen(fen);
  if (setup.isErr) return undefined;
  const pos = Chess.fromSetup(setup.value);
  return pos.isOk ? pos.value : undefined;
}

function renderChess(s: Snapshot): void {
  const pos = chessPosition(s.position);
  if (!cg || !pos) return;
  const last = s.moves[s.moves.length - 1];
  const mine = !s.result && s.turn === s.humanSide;
  const color = s.turn === 'first' ? 'white' : 'black';
  cg.set({
    fen: s.position,
    turnColor: color,
    check: pos.isCheck() ? color : false,
    lastMove: last ? ([last.slice(0, 2), last.slice(2, 4)] as CgKey[]) : undefined,
    movable: { color: mine ? color : undefined, dests: mine ? (chessgroundDests(pos) as Map<CgKey, CgKey[]>) : new Map() },
  });
}

function onChessMove(orig: CgKey, dest: CgKey): void {
  const s = snap;
  if (!s) return;
  const pos = chessPosition(s.position);
  const move = parseUci(`${orig}${dest}`);
  const piece = move && 'from' in move ? pos?.board.get(move.from) : undefined;
  const lastRank = dest[1] === '8' || dest[1] === '1';
  const ply = s.moves.length;
  if (piece?.role === 'pawn' && lastRank) {
    choosePromotion((role) => {
      if (role === undefined) return render();
      send({ t: 'move', ply, move: `${orig}${dest}${role}` });
    });
  } else send({ t: 'move', ply, move: `${orig}${dest}` });
}

function choosePromotion(done: (role: string | undefined) => void): void {
  const box = $('promotion');
  box.innerHTML = [['q', 'Queen'], ['r', 'Rook'], ['b', 'Bishop'], ['n', 'Knight']]
    .map(([r, n]) => `<button type="button" data-role="${r}">${n}</button>`)
    .join('') + '<button type="button" data-role="">Cancel</button>';
  box.hidden = false;
  pendingPromotion = done;
  box.onclick = (e) => {
    const role = (e.target as HTMLElement).dataset.role;
    if (role === undefined) return;
    box.hidden = true;
    pendingPromotion = undefined;
    done(role === '' ? undefined : role);
  };
}

// ---------- shogi ----------

const PROMOTES_TO: Record<string, string> = {
  pawn: 'tokin',
  lance: 'promotedlance',
  knight: 'promotedknight',
  silver: 'promotedsilver',
  bishop: 'horse',
  rook: 'dragon',
};
const UNPROMOTES_TO: Record<string, string> = Object.fromEntries(Object.entries(PROMOTES_TO).map(([a, b]) => [b, a]));

function shogiPosition(sfen: string): Shogi | undefined {
  const pos = parseSfen('standard', sfen, false);
  return pos.isOk ? pos.value : undefined;
}

/** Whether a move from `orig` to `dest` may promote ('choose'), must ('must'), or cannot ('no'). */
function promotionChoice(orig: SgKey, dest: SgKey): 'choose' | 'must' | 'no' {
  const pos = snap ? shogiPosition(snap.position) : undefined;
  if (!pos) return 'no';
  const from = parseSquareName(orig);
  const to = parseSquareName(dest);
  const piece = pos.board.get(from);
  if (!piece) return 'no';
  if (!pieceCanPromote('standard')(piece, from, to, pos.board.get(to))) return 'no';
  return pieceForcePromote('standard')(piece, to) ? 'must' : 'choose';
}

function renderShogi(s: Snapshot): void {
  const pos = shogiPosition(s.position);
  if (!sg || !pos) return;
  const [board, turn, hands] = s.position.split(' ');
  const last = s.moves[s.moves.length - 1];
  const mine = !s.result && s.turn === s.humanSide;
  const color = s.turn === 'first' ? 'sente' : 'gote';
  sg.set({
    sfen: { board: board!, hands: hands === '-' ? '' : hands! },
    turnColor: color,
    activeColor: mine ? color : undefined,
    checks: checksSquareNames(pos) as SgKey[],
    lastDests: last ? (usiToSquareNames(last) as SgKey[]) : [],
    movable: { dests: mine ? (shogigroundMoveDests(pos) as Map<SgKey, SgKey[]>) : new Map() },
    droppable: { dests: mine ? (shogigroundDropDests(pos) as unknown as Map<`${SgPiece['color']} ${SgPiece['role']}`, SgKey[]>) : new Map() },
  });
  void turn;
}

function onShogiMove(orig: SgKey, dest: SgKey, prom: boolean): void {
  if (snap) send({ t: 'move', ply: snap.moves.length, move: `${orig}${dest}${prom ? '+' : ''}` });
}

const DROP_LETTER: Partial<Record<ShogiRole, string>> = { pawn: 'P', lance: 'L', knight: 'N', silver: 'S', gold: 'G', bishop: 'B', rook: 'R' };

function onShogiDrop(piece: SgPiece, key: SgKey): void {
  const letter = DROP_LETTER[piece.role as ShogiRole];
  if (snap && letter) send({ t: 'move', ply: snap.moves.length, move: `${letter}*${key}` });
}

// ---------- moves, engine panel, clocks ----------

/** Moves in SAN (chess) or Western shogi notation, from the initial position. */
function notation(game: GameKind, moves: readonly string[]): string[] {
  const out: string[] = [];
  if (game === 'chess') {
    const pos = Chess.default();
    for (const m of moves) {
      const move = parseUci(m);
      if (!move || !pos.isLegal(move)) return out.concat(moves.slice(out.length));
      out.push(makeSanAndPlay(pos, move));
    }
    return out;
  }
  const pos = shogiPosition('lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1');
  if (!pos) return [...moves];
  for (const m of moves) {
    const md = parseUsi(m);
    if (!md || !pos.isLegal(md)) return out.concat(moves.slice(out.length));
    out.push(makeWesternMoveOrDrop(pos, md) ?? m);
    pos.play(md);
  }
  return out;
}

function renderMoves(s: Snapshot): void {
  const list = $('moves');
  list.innerHTML = '';
  const texts = notation(s.game, s.moves);
  // Chess numbers full moves (white and black on one line), shogi numbers every move.
  const per = s.game === 'chess' ? 2 : 1;
  for (let i = 0; i < texts.length; i += per) {
    const li = document.createElement('li');
    li.textContent = texts.slice(i, i + per).join(' ');
    list.appendChild(li);
  }
  list.scrollTop = list.scrollHeight;
}

function formatScore(score: Score): string {
  if ('mate' in score) return `#${score.mate > 0 ? '' : '-'}${Math.ceil(Math.abs(score.mate) / 2)}`;
  const v = score.cp / 100;
  return `${v > 0 ? '+' : ''}${v.toFixed(2)}`;
}

/** The engine panel; `plies`: the moves played before the searched position (the PV starts there). */
function showInfo(info: Info, plies: number): void {
  const s = snap;
  $('depth').textContent = String(info.depth);
  // Scores from Kishi's view: positive means Kishi thinks it is better.
  $('score').textContent = formatScore(info.score);
  $('nps').textContent = info.nps >= 1000 ? `${Math.round(info.nps / 1000)}k` : String(info.nps);
  $('pv').textContent = s ? notation(s.game, [...s.moves.slice(0, plies), ...info.pv]).slice(plies).join(' ') : info.pv.join(' ');
}

function formatClock(ms: number): string {
  const t = Math.max(0, ms);
  const m = Math.floor(t / 60000);
  const sec = Math.floor((t % 60000) / 1000);
  const tenths = t < 10_000 ? `.${Math.floor((t % 1000) / 100)}` : '';
  return `${m}:${String(sec).padStart(2, '0')}${tenths}`;
}

function tick(): void {
  const s = snap;
  if (!s) return;
  const elapsed = s.clock.running && !s.result ? performance.now() - receivedAt : 0;
  for (const [el, side] of [
    [$('clock-bottom'), s.humanSide],
    [$('clock-top'), s.humanSide === 'first' ? 'second' : 'first'],
  ] as const) {
    const base = side === 'first' ? s.clock.firstMs : s.clock.secondMs;
    const running = s.clock.running === side && !s.result;
    let ms = running ? base - elapsed : base;
    let text = formatClock(ms);
    if (running && s.control.byoyomiMs > 0 && ms <= 0) {
      const by = (s.clock.byoyomiLeftMs ?? s.control.byoyomiMs) - (s.clock.byoyomiLeftMs !== undefined ? elapsed : elapsed - base);
      ms = by;
      text = `byoyomi ${formatClock(by)}`;
    } else if (!running && ms <= 0 && s.control.byoyomiMs > 0) text = `byoyomi ${formatClock(s.control.byoyomiMs)}`;
    el.textContent = text;
    el.classList.toggle('running', running);
    el.classList.toggle('low', running && ms < 10_000);
  }
}

setupForm();
connect();
setInterval(tick, 100);
window.addEventListener('keydown', (e) => {
  if (e.key === 'Escape' && pendingPromotion) {
    $('promotion').hidden = true;
    const done = pendingPromotion;
    pendingPromotion = undefined;
    done(undefined);
  }
});
