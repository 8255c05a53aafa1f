/**
 * A scripted Player for the UCI/USI session tests, and a session harness that collects output lines.
 *
 * Like the alpha-beta player, the mock takes a `go` on the next microtask and clears its stop and
 * ponderhit words then, so a `stop` sent in the same tick as `go` is lost unless the session re-sends it.
 * Searches that would run until stopped (infinite, ponder before ponderhit, `hang`) resolve on `stop`.
 */
import { KishiError, Result } from '../../../src/core/result.js';
import type { PlayerConfig } from '../../../src/player/factory.js';
import type { GoRequest, GoResult, SearchInfo } from '../../../src/player/player.js';
import type { Dialect, EngineSettings } from '../../../src/protocols/uci/dialect.js';
import { EngineSession } from '../../../src/protocols/uci/engine-session.js';
import { FakePlayer } from '../../fakes/player.js';
import type { PlayerMaker } from '../../../src/protocols/uci/engine-session.js';

export interface MockScript {
  /** The answer to a request (default: `{ move: 'e2e4' }`). */
  answer?: (req: GoRequest) => GoResult;
  /** Searches that never end by themselves (until stop), whatever the limits. */
  hang?: boolean;
  /** `go` rejects. */
  fail?: boolean;
  /** Infos sent before answering. */
  infos?: SearchInfo[];
}

/** The shared fake Player (tests/fakes/player.ts) with the UCI/USI options a session sets. */
export class MockPlayer extends FakePlayer {
  readonly hashSizes: number[] = [];
  readonly overheads: number[] = [];

  constructor(
    readonly config: PlayerConfig,
    script: MockScript = {},
  ) {
    super({
      name: 'mock',
      // As AlphaBetaPlayer does when the request reaches the worker.
      asyncStart: true,
      answer: (request) => script.answer?.(request) ?? { move: 'e2e4' },
      infos: script.infos ?? [],
      think: script.hang === true ? 'until-stop' : 'instant',
      ...(script.fail === true ? { fail: new KishiError('ERR_ENGINE', 'mock failure') } : {}),
    });
  }

  async setHashMb(mb: number): Promise<void> {
    this.hashSizes.push(mb);
  }

  async setMoveOverheadMs(ms: number): Promise<void> {
    this.overheads.push(ms);
  }
}

export const DEFAULTS: EngineSettings = {
  search: 'auto',
  hashMb: 16,
  moveOverheadMs: 50,
  ponder: false,
  evalFile: 'models/test.json',
  modelFile: '',
  drawScore: 0,
  multiPv: 1,
  threads: 1,
  evalKind: 'linear',
  nnueFile: 'models/chess-nnue.bin',
  chess960: false,
  searchTuning: '',
  tuningValues: {},
  mctsTuning: '',
  policyFile: '',
  nnueSimd: true,
};

export interface Harness {
  readonly session: EngineSession;
  readonly lines: string[];
  /** Every Player made, oldest first. */
  readonly players: MockPlayer[];
  readonly player: () => MockPlayer;
  readonly send: (...lines: string[]) => void;
  /** Waits until a line matches (polling every millisecond), returns it; throws after `ms`. */
  readonly waitLine: (match: (line: string) => boolean, ms?: number) => Promise<string>;
  readonly quitted: () => boolean;
}

export function harness(
  dialect: Dialect,
  script: MockScript = {},
  over: Partial<EngineSettings> = {},
  makePlayer?: PlayerMaker,
): Harness {
  const lines: string[] = [];
  const players: MockPlayer[] = [];
  let quit = false;
  const session = new EngineSession({
    dialect,
    write: (l) => lines.push(l),
    makePlayer: (config, game) => {
      if (makePlayer !== undefined) return makePlayer(config, game);
      if (config.chessWeights.includes('missing')) return Result.err(new KishiError('ERR_WEIGHTS', 'no such weights'));
      const p = new MockPlayer(config, script);
      players.push(p);
      return Result.ok(p);
    },
    settings: { ...DEFAULTS, ...over },
    checkEvalFile: (path) => (path.includes('bad') ? Result.err(new KishiError('ERR_WEIGHTS', `bad weights ${path}`)) : Result.ok(undefined)),
    checkNnueFile: async (path) => (path.includes('bad') ? Result.err(new KishiError('ERR_NNUE', `bad network ${path}`)) : Result.ok(undefined)),
    idName: 'Kishi test',
    idAuthor: 'tests',
    onQuit: () => (quit = true),
  });
  const waitLine = async (match: (line: string) => boolean, ms = 2000): Promise<string> => {
    const t0 = Date.now();
    for (;;) {
      const hit = lines.find(match);
      if (hit !== undefined) return hit;
      if (Date.now() - t0 > ms) throw new Error(`no matching line within ${ms} ms; got:\n${lines.join('\n')}`);
      await new Promise((r) => setTimeout(r, 1));
    }
  };
  return {
    session,
    lines,
    players,
    player: () => {
      const p = players[players.length - 1];
      if (p === undefined) throw new Error('no player made yet');
      return p;
    },
    send: (...ls) => {
      for (const l of ls) session.handleLine(l);
    },
    waitLine,
    quitted: () => quit,
  };
}

/** Lets queued session work run (a few macrotasks). */
export const settle = async (): Promise<void> => {
  for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 0));
};
