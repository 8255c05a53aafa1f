/** Every game-end line the client may meet, from a scripted server: result, reason, and LOGOUT after. */
import { afterEach, describe, expect, it } from 'vitest';
import { CsaClient } from '../../../src/protocols/csa/client.js';
import type { FinishedGame } from '../../../src/protocols/csa/client.js';
import { summaryWord } from '../../../src/protocols/csa/floodgate-server.js';
import { ForeverThinker } from '../../fakes/player.js';
import { clientOptions, memLog } from './harness.js';
import { readTranscript, replayServer } from './replay.js';
import type { Replay, TranscriptEvent } from './replay.js';

let replay: Replay | undefined;
afterEach(async () => {
  await replay?.close();
  replay = undefined;
});

/** alice's side of the direct transcript up to START (she is white), then `tail` from the server. */
function script(tail: readonly string[]): TranscriptEvent[] {
  const events = readTranscript('transcript-direct-300-10F.txt').filter((e) => e.who === 'alice');
  const start = events.findIndex((e) => e.line.startsWith('START:'));
  const head = events.slice(0, start + 1);
  return [
    ...head,
    { t: 0, who: 'alice', dir: '<<', line: '+7776FU,T1' },
    ...tail.map((line) => ({ t: 0, who: 'alice', dir: '<<' as const, line })),
    { t: 0, who: 'alice', dir: '>>', line: 'LOGOUT' },
  ];
}

describe('game-end lines', () => {
  // The last column: the record's summary word, as shogi-server's game_result.rb writes it.
  const cases: [string[], FinishedGame['result'], string | undefined, string][] = [
    [['%TORYO', '#RESIGN', '#WIN'], 'win', 'RESIGN', 'toryo'],
    [['#TIME_UP', '#LOSE'], 'loss', 'TIME_UP', 'time up'],
    [['#ILLEGAL_MOVE', '#WIN'], 'win', 'ILLEGAL_MOVE', 'illegal move'],
    [['#SENNICHITE', '#DRAW'], 'draw', 'SENNICHITE', 'sennichite'],
    [['#OUTE_SENNICHITE', '#LOSE'], 'loss', 'OUTE_SENNICHITE', 'oute_sennichite'],
    [['%KACHI,T0', '%KACHI', '#JISHOGI', '#LOSE'], 'loss', 'JISHOGI', 'kachi'],
    [['%KACHI,T0', '%KACHI', '#ILLEGAL_MOVE', '#WIN'], 'win', 'ILLEGAL_MOVE', 'illegal kachi'],
    [['#MAX_MOVES', '#CENSORED'], 'draw', 'MAX_MOVES', 'max_moves'],
    [['#ILLEGAL_ACTION', '#LOSE'], 'loss', 'ILLEGAL_ACTION', 'illegal action'],
    [['#CHUDAN', '#DRAW'], 'draw', 'CHUDAN', 'chudan'],
  ];
  it.each(cases)('%j -> %s by %s, recorded as %s', async (tail, result, reason, word) => {
    replay = await replayServer(script(tail), 'alice');
    const finished: FinishedGame[] = [];
    const log = memLog();
    const thinker = new ForeverThinker();
    const client = new CsaClient(clientOptions(replay.port, 'alice', { secret: 'pw-alice', log }), thinker, {
      onGameEnd: (f) => finished.push(f),
    });
    const session = client.run();
    const { sent } = await replay.done;
    const end = await session;
    expect(sent).toEqual(['LOGIN alice csatest-300-10F,pw-alice', 'AGREE', 'LOGOUT']);
    expect(finished.map((f) => [f.result, f.reason])).toEqual([[result, reason]]);
    expect(summaryWord(finished[0]!)).toBe(word);
    expect([end.games, end.duringGame]).toEqual([1, false]);
    // The search started on black's move was stopped when the game ended.
    expect(thinker.stops).toBeGreaterThanOrEqual(1);
    if (reason === 'TIME_UP') expect(log.notable()).toContain(`error we lost game ${finished[0]!.game.summary.gameId} on time`);
  });

  it('#CHUDAN alone ends the game as aborted after a short wait', async () => {
    replay = await replayServer(script(['#CHUDAN']), 'alice');
    const finished: FinishedGame[] = [];
    const client = new CsaClient(clientOptions(replay.port, 'alice', { secret: 'pw-alice', log: memLog() }), new ForeverThinker(), {
      onGameEnd: (f) => finished.push(f),
    });
    const session = client.run();
    const { sent } = await replay.done;
    await session;
    expect(sent.at(-1)).toBe('LOGOUT');
    expect(finished.map((f) => [f.result, f.reason])).toEqual([['aborted', 'CHUDAN']]);
  });
});
