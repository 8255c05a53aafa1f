/**
 * The `kishi` command line: each subcommand lives in `src/cli/<name>.ts` and registers itself; the
 * command table of src/cli/program.ts loads only the module of the command being run.
 * Exit codes: 0 success, 1 runtime failure, 2 bad usage or bad config.
 */
import { buildProgram } from './cli/program.js';

await (await buildProgram(process.argv)).parseAsync(process.argv);
