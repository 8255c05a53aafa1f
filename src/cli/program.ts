/**
 * The `kishi` program: every subcommand of src/cli/ registered on one commander `Command`. Built
 * here, apart from src/main.ts (which parses argv at import), so that tests can walk the commands.
 */
import { Command } from 'commander';
import { gamesOnServers } from '../bot/servers.js';
import { register as registerAnalyse } from './analyse.js';
import { register as registerCsa } from './csa.js';
import { register as registerDatagen } from './datagen.js';
import { register as registerLearn } from './learn.js';
import { register as registerLichess } from './lichess.js';
import { register as registerMatch } from './match.js';
import { register as registerPerft } from './perft.js';
import { register as registerPlot } from './plot.js';
import { register as registerQueue } from './queue.js';
import { register as registerRun } from './run.js';
import { register as registerSelfplay } from './selfplay.js';
import { register as registerTrain } from './train.js';
import { register as registerSuite } from './suite.js';
import { register as registerTune } from './tune.js';
import { register as registerUci } from './uci.js';
import { register as registerUsi } from './usi.js';
import { register as registerWorker } from './worker.js';

/** The whole command line, ready for `parseAsync`. */
export function buildProgram(): Command {
  const program = new Command();
  program
    .name('kishi')
    .description(`Kishi plays ${gamesOnServers()}, and in any GUI through UCI/USI; alpha-beta and MCTS engines that learn their own evaluation.`)
    .version('0.1.0')
    .showHelpAfterError()
    .exitOverride((err) => {
      // Help and version are not errors; usage errors exit 2 like a bad config does.
      process.exit(err.code === 'commander.helpDisplayed' || err.code === 'commander.version' ? 0 : 2);
    });
  program.addHelpText(
    'after',
    [
      '',
      'Examples:',
      '  LICHESS_TOKEN=lip_... npx kishi run              play on the servers enabled in config/kishi.yaml',
      '  CSA_PASSWORD=trip npx kishi csa --games 1        one game on floodgate with the built-in engine',
      '  npx kishi uci                                    a UCI engine for a chess GUI (npx kishi usi for shogi)',
      '  npx kishi match -g shogi -e cmd=kishi -e cmd=/usr/games/fairy-stockfish -n 20 --tc 10+0.1',
      '  npx kishi perft --sfen startpos --depth 4        shogi move-generation counts',
      '  npx kishi worker --queue redis://host:6379       run datagen, match and self-play jobs from a Redis queue (docs/queue.md)',
      '(after `npm link`, plain `kishi` works from any directory)',
    ].join('\n'),
  );
  for (const register of [registerRun, registerLichess, registerCsa, registerPerft, registerUci, registerUsi, registerTrain, registerSelfplay, registerMatch, registerSuite, registerAnalyse, registerPlot, registerDatagen, registerLearn, registerTune, registerWorker, registerQueue]) register(program);
  return program;
}
