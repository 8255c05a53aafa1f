/**
 * The `kishi` program: every subcommand of src/cli/ registered on one commander `Command`. Built
 * here, apart from src/main.ts (which parses argv at import), so that tests can walk the commands.
 */
import { Command } from 'commander';
import { gamesOnServers, serverNames } from '../bot/servers.js';

/** A module of src/cli/ that registers its commands on the program. */
interface CommandModule {
  register(program: Command): void;
}

/**
 * The command table: each module's top-level commands with the description `--help` lists, and how
 * to load the module. Only the module of the command being run is imported (and with it what that
 * command needs), so `kishi --help` and `kishi uci` do not load BullMQ, onnxruntime or the web page
 * (tests/cli/program.test.ts checks that these descriptions are the modules' own).
 */
export const COMMANDS: readonly { readonly commands: readonly (readonly [name: string, description: string])[]; readonly load: () => Promise<CommandModule> }[] = [
  { commands: [['run', `play on the servers enabled in the config (${serverNames()}); with no account, serve the local web page`]], load: () => import('./run.js') },
  {
    commands: [
      ['lichess', 'lichess account tools'],
      ['lishogi', 'lishogi account tools'],
    ],
    load: () => import('./lichess.js'),
  },
  {
    commands: [['fake-server', 'serve the local fake lichess or lishogi (the Bot API the tests play against) for real clients such as lichess-bot']],
    load: () => import('./fake-server.js'),
  },
  { commands: [['csa', 'play shogi on a CSA server (floodgate) with the built-in engine or an external USI engine']], load: () => import('./csa.js') },
  { commands: [['perft', 'count the leaf nodes of the legal-move tree to a fixed depth, with nodes per second']], load: () => import('./perft.js') },
  { commands: [['uci', 'speak UCI on stdin/stdout: the chess engine (standard and Chess960)']], load: () => import('./uci.js') },
  { commands: [['usi', 'speak USI on stdin/stdout: the shogi engine']], load: () => import('./usi.js') },
  {
    commands: [['train', 'learn the evaluation: treestrap (self-play), tdleaf (game logs), alphazero (the MCTS net), ratings (learning curves of training runs)']],
    load: () => import('./train.js'),
  },
  {
    commands: [
      ['selfplay', 'AlphaZero self-play with the MCTS and a net: training chunks of whole games'],
      ['log-records', 'training chunks (phase "online") from the logs of finished online games'],
    ],
    load: () => import('./selfplay.js'),
  },
  { commands: [['match', 'play games between two UCI/USI engines (or a gauntlet against a ladder) and measure the Elo difference']], load: () => import('./match.js') },
  { commands: [['suite', 'run test positions (chess EPD with bm/am or STS points, shogi tsume SFEN) against an engine']], load: () => import('./suite.js') },
  { commands: [['analyse', "show the engine's best lines (MultiPV) for a position, depth by depth"]], load: () => import('./analyse.js') },
  { commands: [['plot', 'draw learning curves, rating ladders, suite, bench and SPSA charts (SVG) from result files']], load: () => import('./plot.js') },
  { commands: [['datagen', 'self-play positions labelled with search score and game result, for training the network evaluation']], load: () => import('./datagen.js') },
  {
    commands: [['learn', "the network evaluation's generation cycle for one game: datagen with the current net, training (trainer/nnue_train.py), SPRT gate, promotion into models/ (resumable)"]],
    load: () => import('./learn.js'),
  },
  { commands: [['tune', 'SPSA tuning of the alpha-beta search margins (or the MCTS constants) by self-play game pairs (resumable)']], load: () => import('./tune.js') },
  { commands: [['worker', 'run datagen, self-play and match jobs from a Redis job queue (BullMQ) on this machine']], load: () => import('./worker.js') },
  { commands: [['queue', 'the Redis job queue of `kishi worker`']], load: () => import('./queue.js') },
];

/** The command `argv` runs (`kishi help <command>` counts as it), or undefined (`--help`, `--version`, none). */
export const commandOf = (argv: readonly string[]): string | undefined => {
  const words = argv.slice(2).filter((a) => !a.startsWith('-'));
  return words[0] === 'help' ? words[1] : words[0];
};

/**
 * The command line for `argv`, ready for `parseAsync`: the module of the command it runs loaded
 * and registered, every other command a stub with its name and description (enough for `--help`).
 * `all`: every module loaded (tests walk the whole command tree).
 */
export async function buildProgram(argv: readonly string[] = process.argv, all = false): Promise<Command> {
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
  const wanted = commandOf(argv);
  for (const entry of COMMANDS) {
    if (all || entry.commands.some(([name]) => name === wanted)) (await entry.load()).register(program);
    else for (const [name, description] of entry.commands) program.command(name).description(description);
  }
  return program;
}
