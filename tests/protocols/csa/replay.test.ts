/**
 * Transcript replays: given the server's lines of each real shogi-server session in
 * tests/fixtures/csa/, our client sends the same lines the real client did, in the same order.
 * Moves come from a test double that plays the transcript's own moves (so the server's echoes fit);
 * keep-alive blank lines are the client's own business and left out of the comparison.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { CsaClient } from '../../../src/protocols/csa/client.js';
import type { CsaClientOptions, CsaLog } from '../../../src/protocols/csa/client.js';
import { x1Query } from '../../../src/protocols/csa/x1.js';
import { CsaScriptPlayer } from './doubles.js';
import { readTranscript, replayServer, sentMoves } from './replay.js';
import type { Replay } from './replay.js';

const quiet: CsaLog = { debug() {}, info() {}, warn() {}, error() {} };

function clientOptions(port: number, user: string, password: string): CsaClientOptions {
  const comma = password.indexOf(',');
  return {
    host: '127.0.0.1',
    port,
    user,
    gameName: password.slice(0, comma),
    secret: password.slice(comma + 1),
    x1: false,
    connectTimeoutMs: 2000,
    keepAliveMs: 40_000,
    minBlankGapMs: 30_000,
    replyTimeoutMs: 30_000,
    safetyMarginMs: 1000,
    comments: true,
    ponder: false,
    closeWaitMs: 200,
    log: quiet,
  };
}

let replay: Replay | undefined;
afterEach(async () => {
  await replay?.close();
  replay = undefined;
});

/** Runs our client as `who` against the replayed server side of `file`; returns [sent, expected]. */
async function run(file: string, who: string): Promise<{ sent: string[]; expected: string[] }> {
  const events = readTranscript(file);
  const login = events.find((e) => e.who === who && e.dir === '>>' && e.line.startsWith('LOGIN '))!.line.split(' ');
  replay = await replayServer(events, who);
  const client = new CsaClient(clientOptions(replay.port, login[1]!, login[2]!), new CsaScriptPlayer(sentMoves(events, who)));
  const session = client.run();
  const result = await replay.done;
  await session;
  return result;
}

describe('transcript replays', () => {
  const cases: [string, string][] = [
    ['transcript-direct-300-10F.txt', 'alice'],
    ['transcript-direct-300-10F.txt', 'bob'],
    ['transcript-floodgate-300-10F.txt', 'alice'],
    ['transcript-floodgate-300-10F.txt', 'bob'],
    ['transcript-chudan.txt', 'bob'],
    ['transcript-illegal.txt', 'alice'],
    ['transcript-kachi.txt', 'alice'],
    ['transcript-offturn.txt', 'bob'],
    ['transcript-timeup-keepalive.txt', 'bob'],
    ['transcript-timeup-silent.txt', 'bob'],
  ];
  it.each(cases)('%s as %s: the same lines in the same order', async (file, who) => {
    const { sent, expected } = await run(file, who);
    expect(sent).toEqual(expected);
    expect(sent[0]).toMatch(/^LOGIN /);
  });

  it('the comment of the bob side is reproduced exactly', async () => {
    const { sent } = await run('transcript-floodgate-300-10F.txt', 'bob');
    expect(sent).toEqual(['LOGIN bob floodgate-300-10F,pw-bob', 'AGREE', "+7776FU,'* 30 -3334FU +2726FU", '+2726FU', '%TORYO', 'LOGOUT']);
  });

  it('x1 queries send what the x1 transcript shows', async () => {
    const events = readTranscript('transcript-x1.txt');
    replay = await replayServer(events, 'alice');
    const answers = await x1Query({
      host: '127.0.0.1',
      port: replay.port,
      user: 'alice',
      secret: 'pw-alice',
      commands: ['%%VERSION', '%%WHO', '%%LIST'],
      timeoutMs: 5000,
    });
    const { sent, expected } = await replay.done;
    expect(sent).toEqual(expected);
    expect(answers.unwrap()).toEqual([
      '##[LOGIN] +OK x1',
      '##[VERSION] Shogi Server revision 20201206',
      '##[VERSION] +OK',
      '##[WHO] alice+df33881b4a7bedbf35be78e1418a3186 x1 connected',
      '##[WHO] bob+24d9e93676d96d3efd16926127d6d948 x1 connected',
      '##[WHO] +OK',
      '##[LIST] +OK',
    ]);
  });
});
