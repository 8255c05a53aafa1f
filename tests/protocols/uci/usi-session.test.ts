/**
 * The USI state machine against a mock Player: handshake (option names without spaces), sente's
 * clock as btime, byoyomi and Fischer forms, go mate and its checkmate answers, resign and win,
 * gameover during pondering, and bad positions.
 */
import { describe, expect, it } from 'vitest';
import { usiDialect } from '../../../src/protocols/uci/usi-dialect.js';
import { harness, settle } from './mock-player.js';

const bestmove = (l: string): boolean => l.startsWith('bestmove');
const SENTE_SFEN = 'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1';

describe('USI handshake and options', () => {
  it('answers usi with options whose names have no spaces', () => {
    const h = harness(usiDialect);
    h.send('usi');
    expect(h.lines.slice(0, 15)).toEqual([
      'id name Kishi test',
      'id author tests',
      'option name USI_Hash type spin default 16 min 1 max 32768',
      'option name ClearHash type button',
      'option name USI_Ponder type check default false',
      'option name MoveOverhead type spin default 50 min 0 max 60000',
      'option name EvalFile type filename default models/test.json',
      'option name ModelFile type filename default <empty>',
      'option name NnueFile type filename default models/chess-nnue.bin',
      'option name DrawScore type spin default 0 min -100 max 100',
      'option name Search type combo default auto var auto var alphabeta var mcts var dyna2 var td',
      'option name MultiPV type spin default 1 min 1 max 64',
      'option name Threads type spin default 1 min 1 max 256',
      'option name Eval type combo default linear var linear var nnue',
      'option name SearchTuning type string default <empty>',
    ]);
    expect(h.lines.at(-1)).toBe('usiok');
    expect(h.lines).toContain('option name rfpMargin type spin default 200 min 0 max 2000'); // shogi's margin
    expect(h.lines).toContain('option name PolicyFile type filename default <empty>');
    for (const l of h.lines.filter((x) => x.startsWith('option'))) expect(l).toMatch(/^option name \S+ type /);
  });

  it('takes USI_Hash/USI_Ponder and the fairy-stockfish names, and writes <empty> for empty strings', async () => {
    const h = harness(usiDialect, {}, { evalFile: '' });
    h.send('usi');
    expect(h.lines).toContain('option name EvalFile type filename default <empty>');
    h.lines.length = 0;
    h.send('setoption name USI_Hash value 256', 'setoption name USI_Ponder value true', 'isready');
    await h.waitLine((l) => l === 'readyok');
    expect(h.player().config.hashMb).toBe(256);
    h.send('setoption name Hash value 8', 'setoption name Ponder value false', 'setoption name Move Overhead value 1500', 'usinewgame');
    await h.session.idle();
    expect(h.player().hashSizes).toEqual([8]);
    expect(h.player().overheads).toEqual([1500]);
    expect(h.session.currentSettings()).toMatchObject({ hashMb: 8, ponder: false, moveOverheadMs: 1500 });
    expect(h.lines).toEqual(['readyok']);
  });
});

describe('USI positions and go', () => {
  it('maps btime to sente, byoyomi and increments', async () => {
    const h = harness(usiDialect, { answer: () => ({ move: '2g2f', ponder: '8c8d' }) });
    h.send(
      'position startpos moves 7g7f 3c3d',
      'go btime 60000 wtime 50000 byoyomi 10000',
      'go btime 300000 wtime 290000 binc 10000 winc 5000',
      'go btime 0 wtime 0 byoyomi 1000',
      'go depth 4',
      'go nodes 900',
    );
    await h.waitLine(() => h.lines.filter(bestmove).length === 5);
    expect(h.lines).toEqual(Array(5).fill('bestmove 2g2f ponder 8c8d'));
    const p = { game: 'shogi', variant: 'standard', start: 'startpos', moves: ['7g7f', '3c3d'] };
    expect(h.player().requests).toEqual([
      { ...p, clock: { firstMs: 60000, secondMs: 50000, firstIncMs: 0, secondIncMs: 0, byoyomiMs: 10000 } },
      { ...p, clock: { firstMs: 300000, secondMs: 290000, firstIncMs: 10000, secondIncMs: 5000, byoyomiMs: 0 } },
      { ...p, clock: { firstMs: 0, secondMs: 0, firstIncMs: 0, secondIncMs: 0, byoyomiMs: 1000 } },
      { ...p, limits: { depth: 4 } },
      { ...p, limits: { nodes: 900 } },
    ]);
  });

  it('normalises SFEN (3 or 4 fields) and keeps the previous position after bad input', async () => {
    const h = harness(usiDialect);
    h.send(`position sfen ${SENTE_SFEN.replace(/ 1$/, '')} moves 2g2f 8c8d`);
    expect(h.lines).toEqual([]);
    const good = h.session.currentPosition();
    expect(good.start).toBe(SENTE_SFEN);
    expect(good.moves).toEqual(['2g2f', '8c8d']);
    h.send(
      'position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNX b - 1',
      'position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
    );
    expect(h.lines.length).toBe(2);
    for (const l of h.lines) expect(l).toMatch(/^info string error: .*; the previous position is kept$/);
    expect(h.session.currentPosition()).toBe(good);
    // An illegal move ends the move list there: the moves before it are played.
    h.send(
      'position startpos moves 7g7f 7g7e',
      'position startpos moves 7g7f 3c3d 2g2f P*5e',
      'position startpos moves 7g7f 3c3d 7f7e 3d3e 7e7d 3e3f 7d7c+ P*7d',
    );
    expect(h.lines.slice(2).map((l) => /move \d+ \([^)]+\)/.exec(l)?.[0])).toEqual(['move 2 (7g7e)', 'move 4 (P*5e)', 'move 8 (P*7d)']);
    for (const l of h.lines.slice(2)) expect(l).toMatch(/; the moves before it are played, the rest ignored$/);
    expect(h.session.currentPosition().moves).toEqual(['7g7f', '3c3d', '7f7e', '3d3e', '7e7d', '3e3f', '7d7c+']);
  });

  it('answers bestmove resign as the Player says, and bestmove win where the declaration is legal', async () => {
    const r = harness(usiDialect, { answer: () => ({ move: 'resign' }) });
    r.send('go byoyomi 100');
    expect(await r.waitLine(bestmove)).toBe('bestmove resign');
    const w = harness(usiDialect, { answer: () => ({ move: 'win', ponder: 'x' }) });
    // Sente: king in the camp, 10 pieces there, 28 points with the hand (the CSA 27-point rule).
    w.send('position sfen GGSS5/PPPPK4/RB7/9/9/9/9/9/8k b RB 1', 'go byoyomi 100');
    expect(await w.waitLine(bestmove)).toBe('bestmove win');
    // In the start position the declaration is not legal: the Thinker's fallback, the first legal move.
    const s = harness(usiDialect, { answer: () => ({ move: 'win' }) });
    s.send('go byoyomi 100');
    const start = s.session.currentPosition().game;
    expect(await s.waitLine(bestmove)).toBe(`bestmove ${start.moveToText(start.legalMoves()[0])}`);
  });

  it('answers go mate with checkmate moves, nomate or timeout', async () => {
    const answers = [
      { move: 'G*5b', info: { depth: 1, score: { mate: 1 }, nodes: 3, nps: 0, timeMs: 0, pv: ['G*5b'] } },
      { move: 'nomate' },
      { move: 'timeout' },
    ];
    let i = 0;
    const h = harness(usiDialect, { answer: () => answers[i++]! });
    h.send('position sfen 4k4/9/4G4/9/9/9/9/9/4K4 b G 1', 'go mate 1000', 'go mate infinite', 'go mate 10');
    await h.waitLine(() => h.lines.filter((l) => l.startsWith('checkmate')).length === 3);
    expect(h.lines.filter((l) => l.startsWith('checkmate'))).toEqual(['checkmate G*5b', 'checkmate nomate', 'checkmate timeout']);
    expect(h.lines.some(bestmove)).toBe(false);
    expect(h.player().requests.map((r) => r.limits)).toEqual([{ mate: true, movetimeMs: 1000 }, { mate: true }, { mate: true, movetimeMs: 10 }]);
  });

  it('gameover during pondering stops the search without a bestmove', async () => {
    const h = harness(usiDialect);
    h.send('position startpos moves 7g7f 3c3d', 'go ponder btime 1000 wtime 1000 byoyomi 1000');
    await settle();
    expect(h.session.searching()).toBe(true);
    h.send('isready');
    expect(h.lines).toEqual(['readyok']);
    h.send('gameover lose');
    await settle();
    expect(h.session.searching()).toBe(false);
    expect(h.player().stopWord).toBe(true);
    expect(h.lines).toEqual(['readyok']);
  });

  it('ponderhit (with YaneuraOu times) ends pondering with a bestmove', async () => {
    const h = harness(usiDialect, { answer: () => ({ move: '2g2f' }) });
    h.send('go ponder btime 1000 wtime 1000 byoyomi 1000');
    await settle();
    expect(h.lines).toEqual([]);
    h.send('ponderhit btime 900 wtime 1000 byoyomi 1000');
    expect(await h.waitLine(bestmove)).toBe('bestmove 2g2f');
  });

  it('runs go perft', async () => {
    const h = harness(usiDialect);
    h.send('go perft 2');
    await h.session.idle();
    expect(h.lines.length).toBe(32);
    expect(h.lines.at(-1)).toBe('Nodes searched: 900');
  });

  it('reports UCI words as unknown', () => {
    const h = harness(usiDialect);
    h.send('uci', 'ucinewgame');
    expect(h.lines).toEqual(['info string unknown command: uci', 'info string unknown command: ucinewgame']);
  });
});
