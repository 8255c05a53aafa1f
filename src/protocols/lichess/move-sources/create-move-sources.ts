/**
 * Builds one game's move-source chain from the lichess config, in lichess-bot's order: Polyglot book,
 * online tablebase, chessdb, lichess cloud eval, opening explorer. Books are shared through one
 * BookLibrary; the online HTTP client is shared too. Returns undefined when every source is off.
 */
import type winston from 'winston';
import type { LichessConfig } from '../../../config/sections/lichess.js';
import type { LichessClient } from '../client.js';
import { BookLibrary, BookSource } from './book-source.js';
import { ChessdbBookSource } from './chessdb.js';
import { CloudEvalSource } from './cloud-eval.js';
import { OnlineEgtbSource } from './egtb.js';
import { ExplorerSource } from './explorer.js';
import type { MoveSource } from './move-source.js';
import { MoveSourceChain } from './move-source.js';
import { OnlineHttp } from './online-http.js';

export interface MoveSourceFactoryOptions {
  readonly config: LichessConfig;
  readonly client: LichessClient;
  readonly token: string;
  /** Our user name, once known. */
  readonly me: () => string;
  readonly log?: winston.Logger;
  readonly random?: () => number;
  /** Wait between online retries (tests shrink it), milliseconds. */
  readonly retryDelayMs?: number;
}

/** A factory of per-game chains, or undefined when no source is enabled. */
export function moveSourceFactory(opts: MoveSourceFactoryOptions): (() => MoveSourceChain) | undefined {
  const { config, log } = opts;
  const om = config.onlineMoves;
  const anyOn =
    config.polyglot.enabled || om.onlineEgtb.enabled || om.chessdbBook.enabled || om.lichessCloudAnalysis.enabled || om.lichessOpeningExplorer.enabled;
  if (!anyOn) return undefined;
  const library = new BookLibrary(log);
  const http = new OnlineHttp({
    timeoutMs: om.timeoutMs,
    maxRetries: om.maxRetries,
    token: opts.token,
    ...(opts.retryDelayMs !== undefined ? { retryDelayMs: opts.retryDelayMs } : {}),
    ...(log ? { log } : {}),
  });
  const random = opts.random ?? Math.random;
  const sources: MoveSource[] = [];
  if (config.polyglot.enabled) sources.push(new BookSource(config.polyglot, library, random));
  if (om.onlineEgtb.enabled) sources.push(new OnlineEgtbSource(om.onlineEgtb, om.chessdbBook.url, config.drawOrResign, http));
  if (om.chessdbBook.enabled) sources.push(new ChessdbBookSource(om.chessdbBook, http));
  if (om.lichessCloudAnalysis.enabled) sources.push(new CloudEvalSource(om.lichessCloudAnalysis, opts.client, om.maxRetries, random));
  if (om.lichessOpeningExplorer.enabled) sources.push(new ExplorerSource(om.lichessOpeningExplorer, http, opts.me));
  return () =>
    new MoveSourceChain({ sources, maxOutOfBookMoves: om.maxOutOfBookMoves, maxDepth: om.maxDepth, ...(log ? { log } : {}) });
}
