/**
 * `log.dir` checked before logging starts: created if missing, and writable. A directory we cannot write
 * is bad config (one line, exit 2), not a stack trace from the log transport.
 */
import { accessSync, constants, mkdirSync } from 'node:fs';
import { KishiError, Result } from '../core/result.js';

/** Creates `dir` if needed and checks that files can be written in it. */
export function checkLogDir(dir: string): Result<string, KishiError> {
  try {
    mkdirSync(dir, { recursive: true });
    accessSync(dir, constants.W_OK);
    return Result.ok(dir);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? 'error';
    return Result.err(new KishiError('ERR_LOG_DIR', `log.dir ${dir}: cannot write log files there (${code})`));
  }
}
