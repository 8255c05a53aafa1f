/**
 * The page: a person plays Kishi at chess (chessground) or shogi (shogiground). The server is the
 * referee; this page only draws what it says and offers the moves chessops/shogiops find legal
 * (legal-move hints, promotion choice, drops). Bundled by src/web/page-bundle.ts with esbuild.
 *
 * Around the board, as lichess and lishogi have it: an eval bar and the engine's score from White's /
 * Sente's side, its line in the page's notation (notation.ts), a move list to step through (the board
 * shows an earlier position while the game goes on; a new move brings it back), sounds (sounds.ts),
 * and for shogi a choice of piece set and of notation (kept in localStorage). A finished game can be
 * reviewed: Kishi scores every position (a graph to click on) and gives the best lines of the one shown
 * (src/web/game-analysis.ts).
 *
 * The current game is kept in the tab's sessionStorage, so a reload takes it back (`join`); an address
 * `/?game=<id>` asks for that game.
 * `#play` carries data attributes (game, position, ply, turn, result; view and shown: the ply and
 * position on the board while stepping through the moves) for styling and for the browser test,
 * which reads them to choose its moves.
 */
import { Chessground } from '@lichess-org/chessground';
import type { Api as CgApi } from '@lichess-org/chessground/api';
import type { Key as CgKey } from '@lichess-org/chessground/types';
import { Chess } from 'chessops/chess';
import { chessgroundDests } from 'chessops/compat';
import { parseFen } from 'chessops/fen';
import { parseUci } from 'chessops/util';
import { Shogiground } from 'shogiground';
import type { Api as SgApi } from 'shogiground/api';
import type { Key as SgKey, Piece as SgPiece } from 'shogiground/types';
import { checksSquareNames, shogigroundDropDests, shogigroundMoveDests, usiToSquareNames } from 'shogiops/compat';
import { parseSfen } from 'shogiops/sfen';
import type { Role as ShogiRole } from 'shogiops/types';
import { parseSquareName } from 'shogiops/util';
import { pieceCanPromote, pieceForcePromote } from 'shogiops/variant/util';
import type { Shogi } from 'shogiops/variant/shogi';
import { importGame } from './import.js';
import { CHESS_START, SHOGI_START, lineText, replay } from './notation.js';
import type { Ply, ShogiNotation } from './notation.js';
import { play as playSound, setSoundOn, soundOn, unlockSound } from './sounds.js';
import { LEVELS, evalShare, formatClock, formatScore, playResult, scoreForFirst, sideName } from './wording.js';
import type { GameKind, Score, Side } from './wording.js';

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
  clock: { firstMs: number; secondMs: number; byoyomiLeftMs?: number; byoyomiSide?: Side; running?: Side };
  result?: { winner?: Side; reason: string };
  takebacksLeft: number;
  drawOffered: boolean;
  lastInfo?: Info;
  evals?: (Score | null)[];
  /** FEN/SFEN the moves start from: a pasted game's (the page's own analysis); the initial position when absent. */
  start?: string;
}
type ServerMessage =
  | { t: 'hello'; levels: number }
  | { t: 'state'; state: Snapshot }
  | { t: 'info'; ply: number; info: Info }
  | { t: 'notice'; text: string }
  | { t: 'error'; text: string }
  | { t: 'graph'; ply: number; turn: Side; score: Score }
  | { t: 'graph-done'; plies: number }
  | { t: 'lines'; ply: number; turn: Side; lines: { multipv: number; depth: number; score: Score; pv: string[] }[] };
type PieceSet = 'kanji1' | 'kanji2' | 'western';

const $ = <T extends HTMLElement = HTMLElement>(id: string): T => document.getElementById(id) as T;
const other = (side: Side): Side => (side === 'first' ? 'second' : 'first');
const startOf = (s: Snapshot): string => s.start ?? (s.game === 'chess' ? CHESS_START : SHOGI_START);
/** The position before ply `ply` (after `ply` moves). */
const positionAt = (s: Snapshot, ply: number): string | undefined => (ply === 0 ? startOf(s) : plies[ply - 1]?.position);
/** A pasted game analysed by Kishi is shown as a finished game with this reason. */
const ANALYSIS = 'analysis';

let socket: WebSocket | undefined;
let snap: Snapshot | undefined;
let receivedAt = 0;
let cg: CgApi | undefined;
let sg: SgApi | undefined;
/** What the board was made for (game, orientation, coordinates): a change makes a new board. */
let boardKey: string | undefined;
let pendingPromotion: ((role: string | undefined) => void) | undefined;
/** The game replayed: the position after each ply, its notation, capture and check. */
let plies: Ply[] = [];
/** The ply the board shows while the person steps through the moves; undefined: the game now. */
let viewPly: number | undefined;
/** Kishi's live search for the position at `ply`, while it thinks. */
let liveInfo: { ply: number; info: Info } | undefined;
/** The last rendered game and ply, to play a sound once per new move. */
let heard: { id: string; ply: number; over: boolean } | undefined;
let lowTimeSecond: number | undefined;
/**
 * Kishi's review of the finished game: each position's score from the first side's view (the graph),
 * and the lines of the position on the board once they come.
 */
let review: { id: string; scores: Map<number, Score>; done: boolean; lines?: { ply: number; text: string[] } } | undefined;

let pieceSet: PieceSet = (localStorage.getItem('kishi-pieces') as PieceSet | null) ?? 'kanji1';
let shogiNotation: ShogiNotation = (localStorage.getItem('kishi-notation') as ShogiNotation | null) ?? 'western';

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
      if (snap?.id !== m.state.id || m.state.moves.length !== snap.moves.length) liveInfo = undefined;
      snap = m.state;
      receivedAt = performance.now();
      sessionStorage.setItem('kishi-game', m.state.id);
      render();
      return;
    case 'info':
      if (snap && m.ply === snap.moves.length) {
        liveInfo = { ply: m.ply, info: m.info };
        renderEngine(snap);
      }
      return;
    case 'notice':
      toast(m.text, false);
      return;
    case 'error':
      toast(m.text, true);
      if (!snap || snap.result) sessionStorage.removeItem('kishi-game');
      return;
    case 'graph':
      // Scores come from the view of the side to move there.
      review?.scores.set(m.ply, scoreForFirst(m.score, m.turn));
      renderReview();
      return;
    case 'graph-done':
      if (review) review.done = true;
      renderReview();
      askLines();
      return;
    case 'lines': {
      const s = snap;
      if (!review || !s || m.ply !== (viewPly ?? plies.length)) return;
      const from = positionAt(s, m.ply);
      if (from === undefined) return;
      review.lines = { ply: m.ply, text: m.lines.map((l) => `${formatScore(scoreForFirst(l.score, m.turn))}\t${lineText(s.game, from, l.pv, shogiNotation)}`) };
      renderReview();
      return;
    }
  }
}

/** Asks for the lines of the position on the board (the server drops an older request). */
function askLines(): void {
  if (review?.done && snap) send({ t: 'lines', ply: viewPly ?? plies.length });
}

/** The review panel: the graph (the first side's share, as the eval bar), the shown ply, the lines. */
function renderReview(): void {
  const box = $('analysis');
  const s = snap;
  box.hidden = !review || !s || review.id !== s.id;
  if (box.hidden || !review || !s) return;
  const n = Math.max(1, plies.length);
  const x = (ply: number): string => ((ply / n) * 300).toFixed(1);
  const pts = [...review.scores.entries()].sort((a, b) => a[0] - b[0]).map(([ply, sc]) => `${x(ply)},${(80 - evalShare(s.game, sc) * 80).toFixed(1)}`);
  const at = viewPly ?? plies.length;
  const area = pts.length > 0 ? `<polygon class="area" points="${x(0)},80 ${pts.join(' ')} ${pts.at(-1)!.split(',')[0]},80"/>` : '';
  $('graph').innerHTML = `${area}<line class="mid" x1="0" y1="40" x2="300" y2="40"/><line class="at" x1="${x(at)}" y1="0" x2="${x(at)}" y2="80"/>`;
  $('graph').dataset.points = String(review.scores.size);
  $('analysis-status').textContent = review.done ? `(${sideName(s.game, 'first')}'s view; click the graph or a move)` : `(looking at move ${review.scores.size} of ${plies.length}…)`;
  const lines = review.lines && review.lines.ply === at ? review.lines.text : [];
  $('lines').innerHTML = '';
  for (const l of lines) {
    const [score, pv] = l.split('\t');
    const li = document.createElement('li');
    const b = document.createElement('b');
    b.textContent = score!;
    li.append(b, ` ${pv}`);
    $('lines').appendChild(li);
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

// ---------- setup form and settings ----------

function setupForm(): void {
  const form = $<HTMLFormElement>('setup');
  const sync = (): void => {
    const game = (form.elements.namedItem('game') as HTMLSelectElement).value as GameKind;
    form.className = `card ${game}`;
    for (const o of Array.from((form.elements.namedItem('side') as HTMLSelectElement).options)) {
      const label = o.dataset[game];
      if (label) o.textContent = label;
    }
    const level = Number((form.elements.namedItem('level') as HTMLInputElement).value);
    const l = LEVELS[level - 1];
    $('level-out').textContent = String(level);
    $('level-means').textContent = l ? `${l.name}: Kishi ${l.means}.` : '';
  };
  form.addEventListener('input', sync);
  sync();
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    unlockSound();
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
  $<HTMLFormElement>('import').addEventListener('submit', (e) => {
    e.preventDefault();
    unlockSound();
    const f = $<HTMLFormElement>('import');
    const game = (f.elements.namedItem('igame') as HTMLSelectElement).value as GameKind;
    const got = importGame(game, (f.elements.namedItem('text') as HTMLTextAreaElement).value);
    if (!got.ok) return toast(got.error, true);
    const { start, moves } = got.value;
    const last = replay(game, start, moves).at(-1)?.position ?? start;
    const turn: Side = last.split(' ')[1] === (game === 'chess' ? 'w' : 'b') ? 'first' : 'second';
    const id = `analysis-${Date.now()}`;
    // Shown as a finished game of the page's own (no clocks, no buttons), with Kishi's review.
    snap = {
      id, game, humanSide: 'first', engine: 'Kishi', control: { initialMs: 0, incrementMs: 0, byoyomiMs: 0 }, moves: [...moves], position: last, turn,
      clock: { firstMs: 0, secondMs: 0 }, result: { reason: ANALYSIS }, takebacksLeft: 0, drawOffered: false, start,
    };
    viewPly = undefined;
    review = { id, scores: new Map(), done: false };
    send({ t: 'analyse', game, start, moves });
    render();
  });
  $('analyse').onclick = () => {
    if (!snap) return;
    review = { id: snap.id, scores: new Map(), done: false };
    send({ t: 'analyse' });
    render();
  };
  $('graph').onclick = (e) => {
    const r = $('graph').getBoundingClientRect();
    view(Math.round(((e.clientX - r.left) / r.width) * Math.max(1, plies.length)));
  };
  $('new').onclick = () => {
    sessionStorage.removeItem('kishi-game');
    review = undefined;
    snap = undefined;
    $('play').hidden = true;
    $('setup').hidden = false;
    $('import').hidden = false;
  };
  $('nav-first').onclick = () => view(0);
  $('nav-prev').onclick = () => view((viewPly ?? plies.length) - 1);
  $('nav-next').onclick = () => view((viewPly ?? plies.length) + 1);
  $('nav-last').onclick = () => view(plies.length);
  $('moves').onclick = (e) => {
    const ply = (e.target as HTMLElement).dataset.ply;
    if (ply !== undefined) view(Number(ply));
  };

  const sound = $<HTMLButtonElement>('sound');
  const syncSound = (): void => {
    sound.textContent = soundOn() ? 'Sound on' : 'Sound off';
    sound.setAttribute('aria-pressed', String(soundOn()));
  };
  sound.onclick = () => {
    unlockSound();
    setSoundOn(!soundOn());
    syncSound();
  };
  syncSound();
  const pieces = $<HTMLSelectElement>('piece-set');
  pieces.value = pieceSet;
  pieces.onchange = () => {
    pieceSet = pieces.value as PieceSet;
    localStorage.setItem('kishi-pieces', pieceSet);
    applyPieceSet();
  };
  applyPieceSet();
  const notation = $<HTMLSelectElement>('notation');
  notation.value = shogiNotation;
  notation.onchange = () => {
    shogiNotation = notation.value as ShogiNotation;
    localStorage.setItem('kishi-notation', shogiNotation);
    render();
  };
}

function applyPieceSet(): void {
  for (const p of ['kanji1', 'kanji2', 'western']) document.body.classList.toggle(`pieces-${p}`, p === pieceSet);
}

/** Shows the position after `ply` moves (the game now when it is the last); the game goes on meanwhile. */
function view(ply: number): void {
  if (!snap) return;
  const p = Math.max(0, Math.min(plies.length, ply));
  viewPly = p === plies.length ? undefined : p;
  render();
  askLines();
}

// ---------- rendering ----------

function render(): void {
  const s = snap;
  if (!s) return;
  $('setup').hidden = true;
  $('import').hidden = true;
  $('play').hidden = false;
  const start = startOf(s);
  plies = replay(s.game, start, s.moves, shogiNotation);
  hearMoves(s);
  if (viewPly !== undefined && viewPly >= plies.length) viewPly = undefined;
  const play = $('play');
  play.dataset.game = s.game;
  play.dataset.id = s.id;
  play.dataset.position = s.position;
  play.dataset.ply = String(s.moves.length);
  play.dataset.turn = s.turn;
  play.dataset.human = s.humanSide;
  if (viewPly === undefined) delete play.dataset.view;
  else play.dataset.view = String(viewPly);
  if (s.result) play.dataset.result = s.result.reason;
  else delete play.dataset.result;
  ensureBoard(s);
  const shown = viewPly === undefined ? s.position : viewPly === 0 ? start : plies[viewPly - 1]!.position;
  const lastMove = viewPly === undefined ? s.moves[s.moves.length - 1] : viewPly === 0 ? undefined : plies[viewPly - 1]!.move;
  const live = viewPly === undefined;
  play.dataset.shown = shown;
  if (s.game === 'chess') renderChess(s, shown, lastMove, live);
  else renderShogi(s, shown, lastMove, live);
  $('board-box').classList.toggle('viewing', !live);
  $('viewing').textContent = live ? '' : s.result ? `viewing move ${viewPly}` : `viewing move ${viewPly}; the game goes on`;
  const analysing = s.result?.reason === ANALYSIS;
  $('name-bottom').textContent = analysing ? sideName(s.game, s.humanSide) : `You (${sideName(s.game, s.humanSide)})`;
  $('name-top').textContent = analysing ? sideName(s.game, other(s.humanSide)) : `Kishi (${sideName(s.game, other(s.humanSide))})`;
  $('engine-name').textContent = s.engine;
  const mine = s.turn === s.humanSide;
  const status = $('status');
  if (analysing) {
    status.textContent = 'Analysis';
    status.className = 'status';
  } else if (s.result) {
    status.textContent = playResult(s.result, s.humanSide);
    status.className = 'status over';
  } else {
    const untimed = s.clock.running === undefined ? ' (the clocks start after the first moves)' : '';
    status.textContent = mine ? (s.drawOffered ? 'Your move; Kishi offers a draw' : `Your move${untimed}`) : 'Kishi is thinking…';
    status.className = 'status';
  }
  // A takeback needs a move of the person's on the board (the server refuses it otherwise).
  const humanMoves = s.moves.filter((_, i) => (i % 2 === 0 ? 'first' : 'second') === s.humanSide).length;
  const takeback = $<HTMLButtonElement>('takeback');
  takeback.disabled = !!s.result || s.takebacksLeft <= 0 || humanMoves === 0;
  takeback.title = humanMoves === 0 ? 'nothing to take back yet' : `${s.takebacksLeft} left`;
  $<HTMLButtonElement>('draw').disabled = !!s.result;
  $('draw').textContent = s.drawOffered && !s.result ? 'Accept draw' : 'Offer draw';
  $<HTMLButtonElement>('resign').disabled = !!s.result;
  $('new').hidden = !s.result;
  $('analyse').hidden = !s.result || review?.id === s.id;
  renderMoves(s);
  renderEngine(s);
  renderReview();
  const dl = $('downloads');
  const kinds = analysing ? [] : s.game === 'chess' ? ['pgn'] : ['kif', 'csa'];
  dl.innerHTML = kinds.map((k) => `<a href="/games/${s.id}.${k}" download data-kind="${k}">${k.toUpperCase()}</a>`).join('');
  tick();
}

/** One sound per new move (capture, check or plain), and one at the end of the game. */
function hearMoves(s: Snapshot): void {
  const before = heard;
  heard = { id: s.id, ply: s.moves.length, over: !!s.result };
  if (!before || before.id !== s.id) return;
  if (s.result && !before.over) playSound('end');
  else if (s.moves.length === before.ply + 1) {
    const p = plies[plies.length - 1];
    playSound(p?.check ? 'check' : p?.capture ? 'capture' : 'move');
    viewPly = undefined; // a new move brings the board back to the game, as lichess does
  }
}

function ensureBoard(s: Snapshot): void {
  const key = `${s.id} ${s.game} ${s.humanSide} ${s.game === 'shogi' ? shogiNotation : ''}`;
  if (boardKey === key && (cg || sg)) return;
  cg?.destroy();
  sg?.destroy();
  cg = sg = undefined;
  const box = $('board-box');
  box.className = s.game;
  const el = document.createElement('div');
  el.id = 'board';
  $('board').replaceWith(el);
  boardKey = key;
  $('eval-bar').classList.toggle('flip', s.humanSide === 'second');
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
        // Files 9..1; ranks in kanji for Japanese notation (７六歩), in digits for western (P-76).
        coordinates: { enabled: true, files: 'numeric', ranks: shogiNotation === 'japanese' ? 'japanese' : 'numeric' },
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

function renderChess(s: Snapshot, fen: string, last: string | undefined, live: boolean): void {
  const pos = chessPosition(fen);
  if (!cg || !pos) return;
  const mine = live && !s.result && s.turn === s.humanSide;
  const color = pos.turn;
  cg.set({
    fen,
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

function renderShogi(s: Snapshot, sfen: string, last: string | undefined, live: boolean): void {
  const pos = shogiPosition(sfen);
  if (!sg || !pos) return;
  const [board, , hands] = sfen.split(' ');
  const mine = live && !s.result && s.turn === s.humanSide;
  const color = pos.turn;
  sg.set({
    sfen: { board: board!, hands: hands === '-' ? '' : hands! },
    turnColor: color,
    activeColor: mine ? color : undefined,
    checks: checksSquareNames(pos) as SgKey[],
    lastDests: last ? (usiToSquareNames(last) as SgKey[]) : [],
    movable: { dests: mine ? (shogigroundMoveDests(pos) as Map<SgKey, SgKey[]>) : new Map() },
    droppable: { dests: mine ? (shogigroundDropDests(pos) as unknown as Map<`${SgPiece['color']} ${SgPiece['role']}`, SgKey[]>) : new Map() },
  });
}

function onShogiMove(orig: SgKey, dest: SgKey, prom: boolean): void {
  if (snap) send({ t: 'move', ply: snap.moves.length, move: `${orig}${dest}${prom ? '+' : ''}` });
}

const DROP_LETTER: Partial<Record<ShogiRole, string>> = { pawn: 'P', lance: 'L', knight: 'N', silver: 'S', gold: 'G', bishop: 'B', rook: 'R' };

function onShogiDrop(piece: SgPiece, key: SgKey): void {
  const letter = DROP_LETTER[piece.role as ShogiRole];
  if (snap && letter) send({ t: 'move', ply: snap.moves.length, move: `${letter}*${key}` });
}

// ---------- moves, engine panel, eval bar, clocks ----------

function renderMoves(s: Snapshot): void {
  const list = $('moves');
  list.innerHTML = '';
  const current = viewPly ?? plies.length;
  // Chess numbers full moves (white and black on one line), shogi numbers every move.
  const per = s.game === 'chess' ? 2 : 1;
  for (let i = 0; i < plies.length; i += per) {
    const li = document.createElement('li');
    for (let j = i; j < Math.min(i + per, plies.length); j++) {
      const span = document.createElement('span');
      span.className = `mv${j + 1 === current ? ' current' : ''}`;
      span.dataset.ply = String(j + 1);
      span.textContent = plies[j]!.text;
      li.appendChild(span);
    }
    list.appendChild(li);
  }
  const cur = list.querySelector('.current');
  if (viewPly === undefined) list.scrollTop = list.scrollHeight;
  else cur?.scrollIntoView({ block: 'nearest' });
  $<HTMLButtonElement>('nav-first').disabled = $<HTMLButtonElement>('nav-prev').disabled = current === 0;
  $<HTMLButtonElement>('nav-next').disabled = $<HTMLButtonElement>('nav-last').disabled = viewPly === undefined;
}

/**
 * The engine panel and the eval bar: Kishi's live search while it thinks, else its search behind the
 * last move on the board (none after a takeback of its move), its score turned to White's / Sente's
 * side and labelled so. While the person steps back, the bar shows the score of the last search at
 * or before the shown move.
 */
function renderEngine(s: Snapshot): void {
  const kishi = other(s.humanSide);
  const shown = liveInfo && liveInfo.ply === s.moves.length ? liveInfo : s.lastInfo && s.moves.length > 0 ? { ply: s.moves.length - 1, info: s.lastInfo } : undefined;
  $('score-view').textContent = `${sideName(s.game, 'first')}'s view`;
  if (shown) {
    const { info, ply } = shown;
    $('depth').textContent = info.depth > 0 ? String(info.depth) : '–';
    $('score').textContent = formatScore(scoreForFirst(info.score, kishi));
    $('nps').textContent = info.nps >= 1000 ? `${Math.round(info.nps / 1000)}k` : String(info.nps);
    const from = positionAt(s, ply);
    $('pv').textContent = from === undefined ? '' : lineText(s.game, from, info.pv, shogiNotation);
  } else {
    $('depth').textContent = $('score').textContent = $('nps').textContent = '–';
    $('pv').textContent = '';
  }
  // The bar: the shown position's latest score (the live search counts for the game now).
  let score: Score | undefined;
  // The review's score of the shown position, when there is one (already from the first side's view).
  const reviewed = review?.id === s.id ? review.scores.get(viewPly ?? plies.length) : undefined;
  if (reviewed) score = scoreForFirst(reviewed, kishi);
  else if (viewPly === undefined && shown) score = shown.info.score;
  else {
    const evals = s.evals ?? [];
    for (let i = Math.min(viewPly ?? evals.length, evals.length) - 1; i >= 0 && score === undefined; i--) score = evals[i] ?? undefined;
  }
  const share = score === undefined ? 0.5 : evalShare(s.game, scoreForFirst(score, kishi));
  $('eval-fill').style.height = `${(share * 100).toFixed(1)}%`;
  $('eval-bar').title = score === undefined ? 'no evaluation yet' : `${formatScore(scoreForFirst(score, kishi))} (${sideName(s.game, 'first')}'s view)`;
}

function tick(): void {
  const s = snap;
  if (!s) return;
  const elapsed = s.clock.running && !s.result ? performance.now() - receivedAt : 0;
  const by = s.control.byoyomiMs;
  for (const [el, side] of [
    [$('clock-bottom'), s.humanSide],
    [$('clock-top'), other(s.humanSide)],
  ] as const) {
    const base = side === 'first' ? s.clock.firstMs : s.clock.secondMs;
    const running = s.clock.running === side && !s.result;
    let ms = running ? base - elapsed : base;
    let inByoyomi = false;
    if (by > 0 && ms <= 0) {
      // In byoyomi: the period the server counted for this side (after a time-out: what was left, none),
      // else a full one; a running side's period runs from when its main time ran out.
      const known = s.clock.byoyomiSide === side ? s.clock.byoyomiLeftMs : undefined;
      ms = running ? (known !== undefined ? known - elapsed : by - (elapsed - base)) : (known ?? by);
      inByoyomi = true;
    }
    el.textContent = inByoyomi ? `byoyomi ${formatClock(ms)}` : formatClock(ms);
    el.classList.toggle('byoyomi', inByoyomi);
    el.classList.toggle('running', running);
    el.classList.toggle('low', running && ms < 10_000);
    if (running && side === s.humanSide && ms < 10_000) {
      const second = Math.ceil(ms / 1000);
      if (second !== lowTimeSecond) {
        lowTimeSecond = second;
        playSound('low-time');
      }
    }
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
    return;
  }
  if (!snap || $('play').hidden || (e.target as HTMLElement).closest('input, select, textarea')) return;
  const at = viewPly ?? plies.length;
  const keys: Record<string, number> = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: plies.length };
  const to = keys[e.key];
  if (to !== undefined) {
    e.preventDefault();
    view(to);
  }
});
window.addEventListener('pointerdown', unlockSound, { once: true });
// Chessground sizes its board in pixels when made: a window that changes size (a phone turned) redraws it.
window.addEventListener('resize', () => cg?.redrawAll());
