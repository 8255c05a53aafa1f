/**
 * Generates the balanced chess opening set `data/openings/chess-balanced.epd`:
 *
 *   npx tsc -p . && node dist/tools/data/make-openings.js [--count 1000] [--min-plies 4] [--max-plies 6]
 *     [--walk-depth 8] [--multipv 8] [--margin 60] [--eval-depth 12] [--window 50] [--seed 1]
 *     [--workers 2] [--engine /usr/games/stockfish] [--out data/openings/chess-balanced.epd]
 *
 * 1. Seeded random walks from the start position, `plies` long (uniform in [min, max]): at each ply
 *    Stockfish analyses the position with `go depth <walk-depth>` and MultiPV `<multipv>`, and the
 *    walk takes one of the moves scoring within `<margin>` cp of the best, uniformly (analyses are
 *    cached per position, so the common first plies are searched once). This keeps the openings to
 *    moves a player might choose, instead of all legal moves (1. a4 h5 2. Ra3 ...).
 * 2. The walk's final position is searched with `go depth <eval-depth>` (MultiPV 1, a fresh hash:
 *    `ucinewgame`); it is kept when |score| <= `<window>` cp, White's view, and it is not a duplicate
 *    (same board, side, castling, en passant).
 * 3. Until `<count>` positions are kept; written as EPD with `hmvc`/`fmvn`, the engine's score
 *    (`ce`, side to move's view), the depth (`acd`), the moves in SAN (`c0`) and an `id`.
 * Deterministic for a seed, whatever the number of workers: every search starts from a clean hash
 * (`ucinewgame`), so its result depends on the position only (Stockfish with one thread at a fixed
 * depth); every walk below the last one started is finished, and the first `<count>` accepted
 * walks, duplicates counted at their earliest walk, are written in walk order.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { Chess } from 'chessops/chess';
import { makeFen } from 'chessops/fen';
import { makeSanAndPlay } from 'chessops/san';
import { parseUci } from 'chessops/util';
import { normalizeMove } from 'chessops/chess';
import { EngineClient } from '../../src/engines/engine-client.js';
import type { InfoFields } from '../../src/engines/info.js';
import { randomInt, seededRng } from '../../src/core/rng.js';

const { values } = parseArgs({
  options: {
    count: { type: 'string', default: '1000' },
    'min-plies': { type: 'string', default: '4' },
    'max-plies': { type: 'string', default: '6' },
    'walk-depth': { type: 'string', default: '8' },
    multipv: { type: 'string', default: '8' },
    margin: { type: 'string', default: '60' },
    'eval-depth': { type: 'string', default: '12' },
    window: { type: 'string', default: '50' },
    seed: { type: 'string', default: '1' },
    workers: { type: 'string', default: '2' },
    engine: { type: 'string', default: '/usr/games/stockfish' },
    out: { type: 'string', default: 'data/openings/chess-balanced.epd' },
  },
});
const num = (k: keyof typeof values): number => Number(values[k]);
const COUNT = num('count');
const MIN_PLIES = num('min-plies');
const MAX_PLIES = num('max-plies');
const WALK_DEPTH = num('walk-depth');
const MULTIPV = num('multipv');
const MARGIN = num('margin');
const EVAL_DEPTH = num('eval-depth');
const WINDOW = num('window');
const SEED = num('seed');
const WORKERS = num('workers');

type Candidate = { move: string; cp: number };
const analysisCache = new Map<string, Promise<Candidate[]>>();
const epdKey = (pos: Chess): string => makeFen(pos.toSetup()).split(' ').slice(0, 4).join(' ');
const cpOf = (f: InfoFields): number | undefined => (f.score === undefined ? undefined : 'cp' in f.score ? f.score.cp : f.score.mate > 0 ? 100_000 : -100_000);

async function start(options: Record<string, string>): Promise<EngineClient> {
  const e = await EngineClient.start({
    spec: { command: values.engine!, args: [], options: { Threads: '1', Hash: '16', ...options }, time: {}, kishi: false },
    game: 'chess',
  });
  return e.unwrap();
}

/** Step 1's analysis: the MultiPV moves at the walk depth, best first. */
async function candidates(engine: EngineClient, moves: readonly string[]): Promise<Candidate[]> {
  // A clean hash for every search, so the result depends on the position only, not on the order.
  await engine.newGame();
  const byPv = new Map<number, Candidate>();
  const reply = await engine.go({ start: 'startpos', moves, depth: WALK_DEPTH, deadlineMs: 120_000 }, (f) => {
    const cp = cpOf(f);
    if (cp === undefined || f.pv === undefined || f.pv.length === 0 || f.depth !== WALK_DEPTH || f.bound !== undefined) return;
    byPv.set(f.multipv ?? 1, { move: f.pv[0]!, cp });
  });
  if (reply.kind !== 'move') throw new Error(`engine failed: ${reply.kind}`);
  return [...byPv.values()].sort((a, b) => b.cp - a.cp);
}

interface Kept {
  readonly walk: number;
  readonly line: string;
  readonly key: string;
}

async function main(): Promise<void> {
  const t0 = Date.now();
  const kept = new Map<string, Kept>();
  let walks = 0;
  let rejected = 0;
  let nextWalk = 0;
  const worker = async (): Promise<void> => {
    // One engine with MultiPV for the walks, one for the final evaluations (MultiPV 1).
    const walker = await start({ MultiPV: String(MULTIPV) });
    const judge = await start({});
    try {
      while (kept.size < COUNT) {
        const walk = nextWalk++;
        const rng = seededRng(SEED * 1_000_003 + walk);
        const plies = MIN_PLIES + randomInt(rng, MAX_PLIES - MIN_PLIES + 1);
        const moves: string[] = [];
        const pos = Chess.default();
        let ok = true;
        for (let ply = 0; ply < plies; ply++) {
          const key = epdKey(pos);
          let list = analysisCache.get(key);
          if (list === undefined) {
            list = candidates(walker, [...moves]);
            analysisCache.set(key, list);
          }
          const all = await list;
          if (all.length === 0) {
            ok = false;
            break;
          }
          const good = all.filter((c) => c.cp >= all[0]!.cp - MARGIN);
          const pick = good[randomInt(rng, good.length)]!;
          moves.push(pick.move);
          pos.play(normalizeMove(pos, parseUci(pick.move)!));
        }
        walks++;
        if (!ok || pos.isEnd()) continue;
        const key = epdKey(pos);
        const seen = kept.get(key);
        if (seen !== undefined) {
          // The same position again: keep the earliest walk, so the output does not depend on timing.
          if (walk < seen.walk) kept.set(key, { ...seen, walk });
          continue;
        }
        await judge.newGame();
        let last: InfoFields | undefined;
        const reply = await judge.go({ start: 'startpos', moves, depth: EVAL_DEPTH, deadlineMs: 120_000 }, (f) => {
          if (f.score !== undefined && (f.multipv ?? 1) === 1 && f.bound === undefined) last = f;
        });
        if (reply.kind !== 'move' || last === undefined) throw new Error('engine failed in the evaluation');
        const cp = cpOf(last)!;
        const white = pos.turn === 'white' ? cp : -cp;
        if (Math.abs(white) > WINDOW) {
          rejected++;
          continue;
        }
        if (kept.has(key)) continue; // another worker got there during the search
        // SAN of the walk for the c0 comment.
        const replay = Chess.default();
        const san: string[] = [];
        moves.forEach((m, i) => {
          const s = makeSanAndPlay(replay, normalizeMove(replay, parseUci(m)!));
          san.push(i % 2 === 0 ? `${i / 2 + 1}. ${s}` : s);
        });
        const fen = makeFen(pos.toSetup()).split(' ');
        const line = `${fen.slice(0, 4).join(' ')} hmvc ${fen[4]}; fmvn ${fen[5]}; ce ${cp}; acd ${last.depth ?? EVAL_DEPTH}; c0 "${san.join(' ')}";`;
        kept.set(key, { walk, line, key });
        if (kept.size % 50 === 0) process.stderr.write(`${kept.size}/${COUNT} kept, ${walks} walks, ${rejected} outside the window, ${analysisCache.size} positions analysed, ${Math.round((Date.now() - t0) / 1000)} s\n`);
      }
    } finally {
      await walker.close();
      await judge.close();
    }
  };
  await Promise.all(Array.from({ length: WORKERS }, () => worker()));
  const sorted = [...kept.values()].sort((a, b) => a.walk - b.walk).slice(0, COUNT);
  const lines = sorted.map((k, i) => `${k.line} id "chess-balanced.${String(i + 1).padStart(4, '0')}";`);
  mkdirSync(dirname(values.out!), { recursive: true });
  writeFileSync(values.out!, `${lines.join('\n')}\n`);
  process.stderr.write(
    `wrote ${lines.length} openings to ${values.out} (${walks} walks, ${rejected} outside +-${WINDOW} cp, ${analysisCache.size} positions analysed, ${Math.round((Date.now() - t0) / 1000)} s)\n`,
  );
}

await main();
