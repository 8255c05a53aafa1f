/**
 * The entry `kishi run` loads (src/cli/run.ts `lishogiFactory`): the lichess bot with the lishogi profile,
 * playing shogi with Players leased from the run's dispatcher, or, with `lishogi.engine: usi:<command>`,
 * with an external USI engine (one process per game) so that the account is a bridge as lishogi-bot is.
 * Games an external engine played are not handed to online learning.
 */
import { join } from 'node:path';
import { Dispatcher } from '../../bot/dispatcher.js';
import type { GameServer } from '../../bot/server.js';
import type { Secrets } from '../../config/load.js';
import type { KishiConfig } from '../../config/schema.js';
import { KishiError, Result } from '../../core/result.js';
import { childLogger } from '../../log/logger.js';
import { fileTranscript } from '../../log/transcript.js';
import { startEnginePlayer } from '../../engines/engine-player.js';
import { LichessBot } from '../lichess/game-server.js';
import { lishogiBotConfig } from './bot-config.js';
import { LISHOGI_PROFILE } from './profile.js';

/** A dispatcher whose Players are external USI engine processes (`usi:<command>`). */
export function usiEngineDispatcher(spec: string, ponder: boolean): Dispatcher {
  const log = childLogger('lishogi/engine');
  return new Dispatcher(async (game) => {
    if (game !== 'shogi') throw new KishiError('ERR_NO_ENGINE', `${spec} plays shogi only`);
    const engine = await startEnginePlayer(spec, 'shogi', { ponder, onWarning: (m) => log.warn(m) });
    if (engine.isErr) throw engine.error;
    return engine.value;
  });
}

export async function createLishogiServer(ctx: {
  readonly config: KishiConfig;
  readonly secrets: Secrets;
  readonly dispatcher: Dispatcher;
}): Promise<Result<GameServer, KishiError>> {
  const { config } = ctx;
  const token = ctx.secrets.lishogiToken;
  if (token === undefined) return Result.err(new KishiError('ERR_SECRET', 'lishogi is enabled but LISHOGI_TOKEN is not set in the environment'));
  let dispatcher = ctx.dispatcher;
  if (config.lishogi.engine !== '') {
    dispatcher = usiEngineDispatcher(config.lishogi.engine, config.engine.ponder);
    const ready = await dispatcher.prepare(['shogi']);
    if (ready.isErr) return Result.err(ready.error);
  }
  return Result.ok(
    new LichessBot({
      profile: LISHOGI_PROFILE,
      config: lishogiBotConfig(config.lishogi),
      token,
      moveOverheadMs: config.engine.moveOverheadMs,
      ponder: config.engine.ponder,
      dispatcher,
      recordsDir: config.records.dir,
      ...(config.log.transcripts ? { transcript: fileTranscript(join(config.log.dir, 'lishogi-wire.log')) } : {}),
    }),
  );
}
