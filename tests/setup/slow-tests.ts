/**
 * The test files the fast tier (`npm run test:fast`, vitest.fast.config.ts) leaves out: each takes
 * tens of seconds or more on two cores, or needs a server, a browser or PyTorch. The full suite
 * (`npm test`, what CI runs) runs them all. Chosen from per-file wall times of a full run
 * (`npx vitest run --reporter=json --outputFile=...`, the `duration` of each file): a file that grows
 * past about 10 s on a busy two-core machine belongs here, with the reason. tests/setup/slow-tests.test.ts
 * checks that every entry names an existing test file.
 */

/** A test file left out of the fast tier, and why. */
export interface SlowTest {
  readonly file: string;
  readonly why: string;
}

const ENGINES = 'complete games against Debian engines';
const QUEUE = 'a real redis-server and worker processes';
const TORCH = 'trains with PyTorch';
const SWEEP = 'a long correctness sweep (perft, differential, hash or notation over many positions)';
const PROCESSES = 'whole CLI runs or several engine processes';

export const SLOW_TESTS: readonly SlowTest[] = [
  // Engines, over the real protocols.
  { file: 'tests/protocols/uci/uci-games.test.ts', why: ENGINES },
  { file: 'tests/protocols/uci/usi-games.test.ts', why: ENGINES },
  { file: 'tests/search/mcts/engine-games.test.ts', why: ENGINES },
  { file: 'tests/protocols/lishogi/games.test.ts', why: ENGINES },
  { file: 'tests/protocols/csa/games.test.ts', why: ENGINES },
  { file: 'tests/match/real-engines.test.ts', why: ENGINES },
  { file: 'tests/match/suite/suite-runner.test.ts', why: 'Stockfish and fairy-stockfish solving test suites' },
  { file: 'tests/engines/gpsusi-player.test.ts', why: 'gpsusi loads its tables for 5-10 s of CPU' },
  // A browser.
  { file: 'tests/web/browser.test.ts', why: 'drives Chromium' },
  // The job queue.
  { file: 'tests/queue/queue-faults.test.ts', why: QUEUE },
  { file: 'tests/queue/match-queue.test.ts', why: QUEUE },
  { file: 'tests/queue/fleet.test.ts', why: QUEUE },
  { file: 'tests/queue/datagen-queue.test.ts', why: QUEUE },
  { file: 'tests/queue/connection.test.ts', why: QUEUE },
  { file: 'tests/queue/selfplay-queue.test.ts', why: QUEUE },
  { file: 'tests/learning/learn/learn-queue.test.ts', why: QUEUE },
  // Training.
  { file: 'tests/learning/alphazero/train-py.test.ts', why: TORCH },
  { file: 'tests/learning/alphazero/train-py-holdout.test.ts', why: TORCH },
  { file: 'tests/learning/alphazero/train-py-window.test.ts', why: TORCH },
  { file: 'tests/learning/alphazero/train-py-device.test.ts', why: TORCH },
  { file: 'tests/learning/learn/learn-torch.test.ts', why: TORCH },
  { file: 'tests/eval/nnue/trainer-export.test.ts', why: TORCH },
  { file: 'tests/learning/policy/policy-train.test.ts', why: TORCH },
  // Long sweeps.
  { file: 'tests/games/shogi/fast/differential.test.ts', why: SWEEP },
  { file: 'tests/games/shogi/perft.test.ts', why: SWEEP },
  { file: 'tests/games/shogi/notation.test.ts', why: SWEEP },
  { file: 'tests/games/shogi/hash.test.ts', why: SWEEP },
  { file: 'tests/games/shogi/fast/perft.test.ts', why: SWEEP },
  { file: 'tests/games/shogi/fast/hash.test.ts', why: SWEEP },
  { file: 'tests/cli/perft.test.ts', why: SWEEP },
  { file: 'tests/eval/nnue/incremental.test.ts', why: SWEEP },
  // Long runs of the bot, the CLI and the learning loops.
  { file: 'tests/protocols/lichess/behaviour.test.ts', why: 'games on the fake lichess with real clocks (about a minute)' },
  { file: 'tests/protocols/lishogi/fake-server.test.ts', why: 'games on the fake lishogi with real clocks' },
  { file: 'tests/protocols/lishogi/bot.test.ts', why: 'games on the fake lishogi with real clocks' },
  { file: 'tests/protocols/lichess/matchmaking.test.ts', why: 'games on the fake lichess with real clocks' },
  { file: 'tests/learning/alphazero/gate.test.ts', why: PROCESSES },
  { file: 'tests/learning/alphazero/selfplay.test.ts', why: PROCESSES },
  { file: 'tests/learning/learn/learn-kill.test.ts', why: PROCESSES },
  { file: 'tests/learning/learn/learn-loop.test.ts', why: PROCESSES },
  { file: 'tests/learning/datagen/datagen.test.ts', why: PROCESSES },
  { file: 'tests/protocols/uci/usi-tsume-cli.test.ts', why: PROCESSES },
  { file: 'tests/cli/run.test.ts', why: PROCESSES },
  { file: 'tests/cli/learn.test.ts', why: 'kishi learn option handling, with runs on disk' },
  { file: 'tests/cli/match.test.ts', why: 'matches and a gauntlet against fake engine processes' },
  { file: 'tests/match/faults.test.ts', why: 'matches against faulty engine processes' },
  { file: 'tests/protocols/lichess/features.test.ts', why: 'games on the fake lichess with real clocks' },
  // Searches, sweeps and encoders over many positions (each over 30 s in a full run on the loaded two-core
  // machine of issue 43).
  { file: 'tests/search/alphabeta/fuzz.test.ts', why: 'searches of random positions judged by chessops and shogiops (minutes)' },
  { file: 'tests/search/alphabeta/tuning.test.ts', why: 'searches that compare trees under changed tunings' },
  { file: 'tests/search/mcts/threads.test.ts', why: 'MCTS searches with helper threads on the CPU networks' },
  { file: 'tests/search/mcts/cpu-evaluator.test.ts', why: 'MCTS on the CPU networks checked against fresh evaluations' },
  { file: 'tests/nn/chess-encoding.test.ts', why: 'move encoding checked on 100,000 random positions' },
  { file: 'tests/nn/shogi-encoding.test.ts', why: 'move encoding checked on many random positions' },
  { file: 'tests/games/chess/uci.test.ts', why: 'UCI move text round trips over random games' },
  { file: 'tests/games/chess/fast/differential.test.ts', why: SWEEP },
  { file: 'tests/games/chess/perft.test.ts', why: SWEEP },
  { file: 'tests/games/chess/fast/perft.test.ts', why: SWEEP },
  { file: 'tests/search/alphabeta/suites.test.ts', why: 'WAC and tsume suites at fixed node budgets' },
  { file: 'tests/search/alphabeta/enhancements.test.ts', why: 'searches with each enhancement on and off' },
  { file: 'tests/search/alphabeta/mate-in-1.test.ts', why: 'searches over the mate-in-1 suites' },
  { file: 'tests/search/alphabeta/dfpn.test.ts', why: 'df-pn over the tsume and no-mate suites' },
  { file: 'tests/search/alphabeta/tree-pin.test.ts', why: 'node-limited searches pinned to their trees' },
  { file: 'tests/search/mcts/descent-pin.test.ts', why: 'node-limited searches pinned to their trees' },
  { file: 'tests/books/openings.test.ts', why: 'reads and checks the opening books' },
  { file: 'tests/cli/help-defaults.test.ts', why: 'runs every command for its help' },
  // Protocols with real clocks and reconnects.
  { file: 'tests/protocols/csa/faults.test.ts', why: 'CSA server faults with real keep-alive and reconnect times (minutes)' },
  { file: 'tests/protocols/lichess/recovery.test.ts', why: 'stalled and dropped streams with real watchdog times' },
  { file: 'tests/protocols/lichess/challenges.test.ts', why: 'games on the fake lichess with real clocks' },
  // Real players in their workers: tests/player/alphabeta-player.test.ts and
  // tests/protocols/uci/usi-real-player.test.ts stay in the fast tier for them.
  { file: 'tests/player/factory.test.ts', why: 'every search kind with the shipped nets, in workers' },
  { file: 'tests/protocols/uci/real-player.test.ts', why: 'the UCI session with the real player, deep searches' },
  { file: 'tests/protocols/uci/ready.test.ts', why: 'timed searches after isready' },
];
