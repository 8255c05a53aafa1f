/**
 * The lishogi config section as the bot (src/protocols/lichess/bot.ts) reads a config: the keys lishogi
 * shares with lichess are taken from the lishogi section, and the chess-only ones (Polyglot books, online
 * move sources, takebacks, claim-victory, PGN records, matchmaking) are the lichess defaults switched
 * off, since lishogi offers no such endpoint or Kishi has no such source for shogi.
 */
import { validateConfig } from '../../config/load.js';
import type { LichessConfig } from '../../config/sections/lichess.js';
import type { LishogiConfig } from '../../config/sections/lishogi.js';

export function lishogiBotConfig(l: LishogiConfig): LichessConfig {
  const base = validateConfig({}).unwrap().lichess;
  return {
    ...base,
    enabled: l.enabled,
    url: l.url,
    concurrency: l.concurrency,
    requestTimeoutMs: l.requestTimeoutMs,
    streamSilenceMs: l.streamSilenceMs,
    gameStreamSilenceMs: l.gameStreamSilenceMs,
    abortTimeS: l.abortTimeS,
    firstMoveMs: l.firstMoveMs,
    claimVictory: false,
    maxTakebacks: 0,
    onShutdown: l.onShutdown,
    statusCheckS: l.statusCheckS,
    fakeThinkTime: false,
    rateLimitingDelayMs: 0,
    polyglot: { ...base.polyglot, enabled: false },
    onlineMoves: {
      ...base.onlineMoves,
      chessdbBook: { ...base.onlineMoves.chessdbBook, enabled: false },
      lichessCloudAnalysis: { ...base.onlineMoves.lichessCloudAnalysis, enabled: false },
      lichessOpeningExplorer: { ...base.onlineMoves.lichessOpeningExplorer, enabled: false },
      onlineEgtb: { ...base.onlineMoves.onlineEgtb, enabled: false },
    },
    challenge: l.challenge,
    drawOrResign: { ...l.drawOrResign, resignForEgtbMinusTwo: false, offerDrawForEgtbZero: false },
    correspondence: l.correspondence,
    goOverrides: l.goOverrides,
    greeting: l.greeting,
    matchmaking: { ...base.matchmaking, enabled: false },
    records: { pgn: false, gameLog: l.records.gameLog, pgnFileGrouping: 'game', mergeExport: false },
  };
}
