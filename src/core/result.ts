/**
 * Expected failures are values (style anchors, convention 4): parsers and validators return a
 * `Result`, and `throw` is kept for broken invariants. Re-exported so that every module uses the
 * same implementation as chessops.
 */
export { Result } from '@badrap/result';

/** An expected failure with a stable code and a message quoting the bad input. */
export class KishiError extends Error {
  constructor(
    /** Stable machine-readable code, e.g. `ERR_FEN` or `ERR_ILLEGAL_MOVE`. */
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'KishiError';
  }
}
