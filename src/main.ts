/**
 * The `kishi` command line: each subcommand lives in `src/cli/<name>.ts` and registers itself in
 * src/cli/program.ts.
 * Exit codes: 0 success, 1 runtime failure, 2 bad usage or bad config.
 */
import { buildProgram } from './cli/program.js';

await buildProgram().parseAsync(process.argv);
