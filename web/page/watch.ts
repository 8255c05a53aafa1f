/**
 * The watch view of a running bot (read-only): every game in progress on every server with its board,
 * clocks and Kishi's last search; finished games with results; our rating game after game; each
 * server's own state (lichess challenge queue, CSA connection); AlphaZero loops' curves. Polls
 * `/api/watch` (src/web/watch.ts reads the game logs) every two seconds. A token given in the page's
 * address (`?token=`) is passed on to the API.
 */
import { Chessground } from '@lichess-org/chessground';
import type { Api as CgApi } from '@lichess-org/chessground/api';
import type { Key as CgKey } from '@lichess-org/chessground/types';
import { Shogiground } from 'shogiground';
import type { Api as SgApi } from 'shogiground/api';
import type { Key as SgKey } from 'shogiground/types';
import { usiToSquareNames } from 'shogiops/compat';
import { lineText, startText } from './notation.js';
import { formatClock, formatScore, scoreForFirst, watchResult } from './wording.js';

type Side = 'first' | 'second';
interface Player { name: string; rating?: number }
interface Game {
  file: string;
  server: string;
  gameId: string;
  game: 'chess' | 'shogi';
  url?: string;
  players: { first: Player; second: Player };
  ourSide: Side;
  plies: number;
  position: string;
  lastMove?: string;
  clockMs?: { first: number; second: number };
  search?: { depth: number; score: { cp: number } | { mate: number }; nodes: number; nps?: number; pv: string[] };
  searchPosition?: string;
  updatedMs: number;
  result?: { winner: Side | null; status: string };
}
interface QueuedChallenge { id: string; challenger: string; rating?: number; variant: string; speed: string; rated: boolean; waitedS: number }
type ServerStatus =
  | { kind: 'lichess'; name: string; account?: string; queue: QueuedChallenge[]; gamesInProgress: number; concurrency: number; botGamesToday: number; botGamesPerDay: number }
  | { kind: 'csa'; name: string; phase: 'disconnected' | 'connecting' | 'waiting' | 'in-game'; state: string; gamesPlayed: number };
interface Snapshot {
  servers: ServerStatus[];
  alphazero: unknown[];
  alphazeroNotes: string[];
  live: Game[];
  finished: Game[];
  ratings: { server: string; game: number; rating: number }[];
  tdleaf: { game: string; update: number; largestChange: number }[];
  tally: Record<string, { wins: number; draws: number; losses: number }>;
  nowMs: number;
}

const token = new URLSearchParams(location.search).get('token');
const withToken = (path: string): string => (token ? `${path}?token=${encodeURIComponent(token)}` : path);
const boards = new Map<string, { el: HTMLElement; cg?: CgApi; sg?: SgApi }>();
const chartKeys = new Map<string, string>();
// Each redraw asks for a new address: setting the same src again would not reload the chart.
let chartVersion = 0;

const esc = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
/** The live games as last polled, with the page's time then and the server's, for the running clocks. */
let polled: { games: Game[]; at: number; serverNow: number } = { games: [], at: 0, serverNow: 0 };
const name = (p: Player): string => `${esc(p.name)}${p.rating !== undefined ? ` (${p.rating})` : ''}`;

function card(g: Game): HTMLElement {
  let entry = boards.get(g.file);
  if (!entry) {
    const el = document.createElement('div');
    el.className = 'card';
    el.innerHTML = `<div class="meta top"></div><div class="mini ${g.game}"><div class="board"></div></div><div class="meta bottom"></div><div class="meta info"></div><div class="pv"></div>`;
    const boardEl = el.querySelector('.board') as HTMLElement;
    entry = { el };
    if (g.game === 'chess') {
      boardEl.style.width = boardEl.style.height = '100%';
      entry.cg = Chessground(boardEl, { viewOnly: true, coordinates: false, orientation: g.ourSide === 'first' ? 'white' : 'black' });
    } else {
      entry.sg = Shogiground({ viewOnly: true, scaleDownPieces: false, hands: { inlined: true }, orientation: g.ourSide === 'first' ? 'sente' : 'gote' }, { board: boardEl });
    }
    boards.set(g.file, entry);
  }
  const el = entry.el;
  el.dataset.game = g.game;
  el.dataset.id = g.gameId;
  el.dataset.plies = String(g.plies);
  const top: Side = g.ourSide === 'first' ? 'second' : 'first';
  const link = g.url ? `<a href="${esc(g.url)}" target="_blank" rel="noopener">${esc(g.server)}</a>` : esc(g.server);
  el.querySelector('.top')!.innerHTML = `<span>${name(g.players[top])}</span><span class="clock" data-side="${top}"></span>`;
  el.querySelector('.bottom')!.innerHTML = `<span>${name(g.players[g.ourSide])}</span><span class="clock" data-side="${g.ourSide}"></span>`;
  // Scores from the first side's view (White, Sente), as on the play page.
  const first = g.game === 'chess' ? 'White' : 'Sente';
  el.querySelector('.info')!.innerHTML = `<span>${link} · ${g.plies} plies</span>${
    g.search ? `<span>depth ${g.search.depth} · ${formatScore(scoreForFirst(g.search.score, g.ourSide))} (${first}'s view) · ${Math.round((g.search.nps ?? 0) / 1000)}k n/s</span>` : ''
  }`;
  // The PV in SAN / western notation, from the position the search started at.
  el.querySelector('.pv')!.textContent = g.search && g.searchPosition !== undefined ? lineText(g.game, startText(g.game, g.searchPosition), g.search.pv) : '';
  if (entry.cg) {
    const m = g.lastMove;
    entry.cg.set({ fen: g.position, lastMove: m ? ([m.slice(0, 2), m.slice(2, 4)] as CgKey[]) : undefined });
  } else if (entry.sg) {
    const [board, , hands] = g.position.split(' ');
    entry.sg.set({ sfen: { board: board!, hands: hands === '-' ? '' : hands! }, lastDests: g.lastMove ? (usiToSquareNames(g.lastMove) as SgKey[]) : [] });
  }
  return el;
}

const PHASE: Record<string, string> = { disconnected: 'not connected', connecting: 'connecting', waiting: 'waiting for a game', 'in-game': 'in a game' };

/** One box per running server: the lichess queue and limits, or the CSA client's state. */
function serverBox(st: ServerStatus): string {
  if (st.kind === 'csa') {
    return `<div class="server" data-kind="csa" data-phase="${st.phase}"><h3>${esc(st.name)}</h3><div class="phase">${PHASE[st.phase] ?? esc(st.phase)} (${esc(st.state)}) · ${st.gamesPlayed} games played</div></div>`;
  }
  const queue = st.queue.length === 0
    ? '<div class="queue">no challenge waiting</div>'
    : `<ol class="queue">${st.queue
        .map((c) => `<li>${esc(c.challenger)}${c.rating !== undefined ? ` (${c.rating})` : ''} · ${esc(c.variant)} ${esc(c.speed)} ${c.rated ? 'rated' : 'casual'} · ${c.waitedS} s</li>`)
        .join('')}</ol>`;
  return `<div class="server" data-kind="lichess"><h3>${esc(st.name)}${st.account ? ` (${esc(st.account)})` : ''}</h3><div class="counts">games ${st.gamesInProgress}/${st.concurrency} · bot games today ${st.botGamesToday}/${st.botGamesPerDay} · waiting ${st.queue.length}</div>${queue}</div>`;
}

function render(s: Snapshot): void {
  const servers = document.getElementById('servers')!;
  (document.getElementById('servers-box') as HTMLElement).hidden = s.servers.length === 0;
  servers.innerHTML = s.servers.map(serverBox).join('');
  (document.getElementById('alphazero') as HTMLElement).hidden = s.alphazero.length === 0 && s.alphazeroNotes.length === 0;
  const live = document.getElementById('live')!;
  const keep = new Set(s.live.map((g) => g.file));
  for (const [file, entry] of boards) {
    if (keep.has(file)) continue;
    entry.cg?.destroy();
    entry.sg?.destroy();
    entry.el.remove();
    boards.delete(file);
  }
  for (const g of s.live) {
    const el = card(g);
    if (el.parentElement !== live) live.appendChild(el);
  }
  polled = { games: s.live, at: performance.now(), serverNow: s.nowMs };
  tickClocks();
  if (s.live.length === 0) live.textContent = 'none now';
  else if (live.firstChild?.nodeType === Node.TEXT_NODE) live.firstChild.remove();
  document.getElementById('tally')!.textContent = Object.entries(s.tally)
    .map(([server, t]) => `${server}: +${t.wins} =${t.draws} -${t.losses}`)
    .join(' · ');
  const body = document.querySelector('#finished tbody')!;
  body.innerHTML = s.finished
    .map((g) => {
      const res = watchResult(g.result!.winner, g.ourSide, g.result!.status);
      return `<tr><td>${esc(g.server)}</td><td>${g.game}</td><td>${name(g.players.first)} – ${name(g.players.second)}</td><td>${g.plies}</td><td>${esc(res)}</td></tr>`;
    })
    .join('');
  for (const [id, data] of [['ratings', s.ratings], ['tdleaf', s.tdleaf], ['alphazero', [...s.alphazero, ...s.alphazeroNotes]]] as const) {
    const key = JSON.stringify(data);
    if (chartKeys.get(id) === key) continue;
    chartKeys.set(id, key);
    (document.getElementById(id) as HTMLImageElement).src = `${withToken(`/api/watch/${id}.svg`)}${token ? '&' : '?'}v=${++chartVersion}`;
  }
  document.getElementById('updated')!.textContent = `updated ${new Date().toLocaleTimeString()}`;
}

/**
 * The live games' clocks, every tenth of a second: the side to move's clock runs from the last
 * move's log line (the file's time, on the server's clock); lichess and CSA clocks start after the
 * first two moves.
 */
function tickClocks(): void {
  for (const g of polled.games) {
    const entry = boards.get(g.file);
    if (!entry || !g.clockMs) continue;
    const toMove: Side = g.position.split(' ')[1] === (g.game === 'chess' ? 'w' : 'b') ? 'first' : 'second';
    const running = g.plies >= 2 && g.result === undefined;
    const elapsed = running ? Math.max(0, polled.serverNow - g.updatedMs + (performance.now() - polled.at)) : 0;
    for (const el of entry.el.querySelectorAll<HTMLElement>('.clock[data-side]')) {
      const side = el.dataset.side as Side;
      const ms = g.clockMs[side] - (side === toMove ? elapsed : 0);
      el.textContent = formatClock(ms);
      el.classList.toggle('running', running && side === toMove);
    }
  }
}

async function poll(): Promise<void> {
  try {
    const r = await fetch(withToken('/api/watch'));
    if (!r.ok) document.getElementById('updated')!.textContent = await r.text();
    else render((await r.json()) as Snapshot);
  } catch {
    document.getElementById('updated')!.textContent = 'Kishi is not reachable';
  }
  setTimeout(() => void poll(), 2000);
}

void poll();
setInterval(tickClocks, 100);
