/**
 * The UCI state machine against a mock Player: handshake, options, positions, every `go` form,
 * isready during a search, stop, ponder/ponderhit, failures and quit.
 */
import { describe, expect, it } from 'vitest';
import { checkmateLine } from '../../../src/protocols/uci/engine-session.js';
import { infoLine, mateMoves } from '../../../src/protocols/uci/info-line.js';
import { uciDialect } from '../../../src/protocols/uci/uci-dialect.js';
import { KishiError, Result } from '../../../src/core/result.js';
import { harness, MockPlayer, settle } from './mock-player.js';

const bestmove = (l: string): boolean => l.startsWith('bestmove');

describe('UCI handshake and options', () => {
  it('answers uci with id, options and uciok', () => {
    const h = harness(uciDialect);
    h.send('uci');
    expect(h.lines.slice(0, 16)).toEqual([
      'id name Kishi test',
      'id author tests',
      'option name Hash type spin default 16 min 1 max 32768',
      'option name Clear Hash type button',
      'option name Ponder type check default false',
      'option name Move Overhead type spin default 50 min 0 max 60000',
      'option name EvalFile type string default models/test.json',
      'option name ModelFile type string default',
      'option name NnueFile type string default models/chess-nnue.bin',
      'option name DrawScore type spin default 0 min -100 max 100',
      'option name Search type combo default auto var auto var alphabeta var mcts var dyna2 var td',
      'option name Eval type combo default linear var linear var nnue',
      'option name UCI_Chess960 type check default false',
      'option name MultiPV type spin default 1 min 1 max 64',
      'option name Threads type spin default 1 min 1 max 256',
      'option name SearchTuning type string default',
    ]);
    expect(h.lines.at(-1)).toBe('uciok');
  });

  it('declares the search margins with their ranges and the CPU-network settings, and passes them to the Player', async () => {
    const h = harness(uciDialect, {}, { searchTuning: 'rfpMargin=90' });
    h.send('uci');
    // Integer margins are spins with their range; the default is the config's value over the game's.
    expect(h.lines).toContain('option name rfpMargin type spin default 90 min 0 max 2000');
    expect(h.lines).toContain('option name futilityBase type spin default 120 min 0 max 5000');
    expect(h.lines.some((l) => l.startsWith('option name lmrDivisor'))).toBe(false); // a fraction: SearchTuning only
    expect(h.lines).toContain('option name MctsTuning type string default');
    expect(h.lines).toContain('option name PolicyFile type string default');
    expect(h.lines).toContain('option name NnueSimd type check default true');
    h.send('setoption name futilityBase value 150', 'setoption name MctsTuning value cpuct=2', 'setoption name PolicyFile value oneply', 'setoption name NnueSimd value false', 'isready');
    await h.waitLine((l) => l === 'readyok');
    const c = h.player().config;
    expect(c.searchTuning).toBe('rfpMargin=90;futilityBase=150');
    expect([c.mctsTuning, c.mctsPolicy, c.nnueSimd]).toEqual(['cpuct=2', 'oneply', false]);
    // Out of range, or a text that does not parse: refused, the setting kept.
    h.send('setoption name futilityBase value 9000', 'setoption name SearchTuning value lmrDivisor=99', 'setoption name MctsTuning value speed=3');
    expect(h.lines.filter((l) => l.startsWith('info string error')).length).toBe(3);
    expect(h.session.currentSettings().searchTuning).toBe('rfpMargin=90');
    expect(h.session.currentSettings().mctsTuning).toBe('cpuct=2');
  });

  it('creates the Player on isready and applies options to it', async () => {
    const h = harness(uciDialect);
    h.send('setoption name Hash value 128', 'isready');
    await h.waitLine((l) => l === 'readyok');
    expect(h.players.length).toBe(1);
    expect(h.player().config.hashMb).toBe(128);
    expect(h.player().newGames).toBe(1);
    h.send('setoption name hash value 32', 'setoption name Move Overhead value 250', 'setoption name moveoverhead value 300', 'isready');
    await h.waitLine((l) => l === 'readyok' && h.lines.filter((x) => x === 'readyok').length === 2);
    expect(h.player().hashSizes).toEqual([32]);
    expect(h.player().overheads).toEqual([250, 300]);
    h.send('setoption name Clear Hash', 'ucinewgame', 'isready');
    await h.session.idle();
    expect(h.player().newGames).toBe(3);
    expect(h.session.currentSettings()).toMatchObject({ hashMb: 32, moveOverheadMs: 300 });
  });

  it('logs and ignores unknown options, refuses bad values', async () => {
    const h = harness(uciDialect);
    h.send(
      'setoption name Frobnicate value 3',
      'setoption name Hash value lots',
      'setoption name Hash value 0',
      'setoption name Ponder value maybe',
      'setoption name Search value minimax',
      'setoption name',
      'setoption name Ponder value true',
      'setoption name Search value AlphaBeta',
    );
    expect(h.lines).toEqual([
      'info string unknown option Frobnicate; ignored',
      'info string error: setoption Hash: expected an integer, got "lots"',
      'info string error: setoption Hash: 0 is below the minimum 1',
      'info string error: setoption Ponder: expected true or false, got "maybe"',
      'info string error: setoption Search: expected one of auto, alphabeta, mcts, dyna2, td, got "minimax"',
      'info string error: setoption: expected "setoption name <id> [value <x>]", got "setoption name"',
    ]);
    expect(h.session.currentSettings()).toMatchObject({ hashMb: 16, ponder: true, search: 'alphabeta' });
  });

  it('switches weights files only to a valid one, rebuilding the Player', async () => {
    const h = harness(uciDialect);
    h.send('isready');
    await h.waitLine((l) => l === 'readyok');
    h.send('setoption name EvalFile value models/bad.json');
    expect(h.lines.at(-1)).toBe('info string error: EvalFile not changed: bad weights models/bad.json');
    h.send('setoption name EvalFile value models/other.json', 'isready');
    await h.session.idle();
    expect(h.players.length).toBe(2);
    expect(h.players[0]!.closed).toBe(true);
    expect(h.player().config.chessWeights).toBe('models/other.json');
  });

  it('switches the alpha-beta network (NnueFile, not ModelFile) only to a valid file, rebuilding the Player', async () => {
    const h = harness(uciDialect, {}, { nnueFile: 'models/chess-nnue.bin' });
    h.send('isready');
    await h.waitLine((l) => l === 'readyok');
    h.send('setoption name NnueFile value nets/bad.bin', 'isready');
    await h.session.idle();
    expect(h.lines).toContain('info string error: NnueFile not changed: bad network nets/bad.bin');
    expect(h.players.length).toBe(1);
    h.send('setoption name NnueFile value nets/gen2.bin', 'isready');
    await h.session.idle();
    expect(h.players.length).toBe(2);
    expect(h.player().config.chessNnue).toBe('nets/gen2.bin');
    expect(h.player().config.chessModel).toBeUndefined();
    // Empty: back to the configured network.
    h.send('setoption name NnueFile value', 'isready');
    await h.session.idle();
    expect(h.player().config.chessNnue).toBe('models/chess-nnue.bin');
  });

  it('passes ModelFile (or Lc0\'s WeightsFile) to the Player as the net of both games, none when empty', async () => {
    const h = harness(uciDialect, {}, { modelFile: 'nets/a.onnx' });
    h.send('isready');
    await h.waitLine((l) => l === 'readyok');
    expect(h.player().config).toMatchObject({ chessModel: 'nets/a.onnx', shogiModel: 'nets/a.onnx' });
    h.send('setoption name WeightsFile value nets/b.onnx', 'isready');
    await h.session.idle();
    expect(h.players.length).toBe(2);
    expect(h.player().config.chessModel).toBe('nets/b.onnx');
    h.send('setoption name ModelFile value', 'isready');
    await h.session.idle();
    expect(h.players.length).toBe(3);
    expect(h.player().config.chessModel).toBeUndefined();
    h.send('setoption name DrawScore value -30', 'isready');
    await h.session.idle();
    expect(h.players.length).toBe(4);
    expect(h.player().config.mctsDrawScore).toBe(-30);
  });

  it('reports a Player that cannot be made, and still answers go with a legal move', async () => {
    const h = harness(uciDialect, {}, { evalFile: 'models/missing.json' });
    h.send('isready');
    await h.waitLine((l) => l === 'readyok');
    expect(h.lines).toEqual(['info string error: no such weights', 'readyok']);
    h.send('position startpos moves e2e4', 'go movetime 100');
    expect(await h.waitLine(bestmove)).toBe('bestmove a7a5');
  });
});

describe('UCI illegal moves', () => {
  it('plays the moves up to an illegal one, as Stockfish does, and says which move was refused', async () => {
    const h = harness(uciDialect);
    h.send('position startpos moves e2e4 e7e5');
    h.send('position startpos moves e2e5');
    expect(h.lines).toEqual(['info string error: move 1 (e2e5): ' + h.lines[0]!.split('(e2e5): ')[1]]);
    expect(h.lines[0]).toMatch(/; the moves before it are played, the rest ignored$/);
    // The start position, white to move: not the previous game, where black was to move.
    expect(h.session.currentPosition().moves).toEqual([]);
    h.lines.length = 0;
    h.send('position startpos moves e2e4 e7e5 e1e3 g1f3', 'position startpos moves e2e4 zz');
    expect(h.lines[0]).toContain('move 3 (e1e3)');
    expect(h.lines[1]).toContain('move 2 (zz)');
    expect(h.session.currentPosition().moves).toEqual(['e2e4']);
    h.lines.length = 0;
    h.send('go depth 1');
    await h.waitLine(bestmove);
    expect(h.player().requests[0]?.moves).toEqual(['e2e4']);
  });
});

describe('UCI root without a move', () => {
  it('a mated root says score mate 0 before bestmove 0000; a stalemate says score cp 0', async () => {
    const h = harness(uciDialect);
    // Fool's mate: white is mated.
    h.send('position startpos moves f2f3 e7e5 g2g4 d8h4', 'go depth 3');
    await h.waitLine(bestmove);
    expect(h.lines.slice(-2)).toEqual(['info depth 0 score mate 0', 'bestmove 0000']);
    h.lines.length = 0;
    h.send('position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1', 'go depth 3');
    await h.waitLine(bestmove);
    expect(h.lines.slice(-2)).toEqual(['info depth 0 score cp 0', 'bestmove 0000']);
  });
});

describe('Search mcts without a model', () => {
  it('searches with alpha-beta and says so, never answers with an unsearched move', async () => {
    const made: string[] = [];
    let mock: MockPlayer | undefined;
    const h = harness(uciDialect, {}, {}, (config) => {
      made.push(config.search);
      if (config.search !== 'alphabeta') return Result.err(new KishiError('ERR_MODEL', 'model /nope.onnx: cannot read'));
      mock = new MockPlayer(config, {});
      return Result.ok(mock);
    });
    h.send('setoption name Search value mcts', 'isready');
    await h.waitLine((l) => l === 'readyok');
    expect(h.lines[0]).toBe('info string model /nope.onnx: cannot read; searching with alpha-beta instead of mcts');
    h.send('position startpos', 'go depth 2');
    await h.waitLine(bestmove);
    expect(made).toEqual(['mcts', 'alphabeta']);
    // The alpha-beta Player searched this move.
    expect(mock?.requests).toHaveLength(1);
    expect(h.lines.some((l) => l.startsWith('info string error'))).toBe(false);
  });
});

describe('UCI positions', () => {
  it('keeps the previous position after a malformed or illegal one', async () => {
    const h = harness(uciDialect);
    h.send('position startpos moves e2e4 e7e5');
    const before = h.session.currentPosition();
    expect(before.moves).toEqual(['e2e4', 'e7e5']);
    h.send(
      'position fen not-a-fen',
      'position',
      'position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1',
      'position fen 8/8/8/8/8/8/8/8 w - - 0 1',
    );
    expect(h.lines.length).toBe(4);
    for (const l of h.lines) expect(l).toMatch(/^info string error: .*; the previous position is kept$/);
    expect(h.session.currentPosition()).toBe(before);
    h.send('go depth 1');
    await h.waitLine(bestmove);
    expect(h.player().requests[0]).toEqual({ game: 'chess', variant: 'standard', start: 'startpos', moves: ['e2e4', 'e7e5'], limits: { depth: 1 } });
  });

  it('extends the previous position when the new one continues it, without touching the old one', () => {
    const h = harness(uciDialect);
    h.send('position startpos moves e2e4 e7e5');
    const a = h.session.currentPosition();
    const fenA = a.game.toText();
    h.send('position startpos moves e2e4 e7e5 g1f3 b8c6');
    const b = h.session.currentPosition();
    expect(b.moves).toEqual(['e2e4', 'e7e5', 'g1f3', 'b8c6']);
    expect(b.game.plies()).toBe(4);
    expect(a.game.toText()).toBe(fenA);
    // Not a continuation: replayed from the start.
    h.send('position startpos moves d2d4');
    expect(h.session.currentPosition().game.plies()).toBe(1);
    const d4 = h.session.currentPosition();
    h.send('position startpos moves d2d4 d7d5 e1e8');
    expect(h.lines.at(-1)).toContain('move 3 (e1e8)');
    // Continued up to the illegal move, on a clone: the previous position is untouched.
    expect(h.session.currentPosition().moves).toEqual(['d2d4', 'd7d5']);
    expect(h.session.currentPosition().game.plies()).toBe(2);
    expect(d4.game.plies()).toBe(1);
  });

  it('normalises FENs and castling, in standard chess and Chess960', async () => {
    const h = harness(uciDialect);
    h.send(
      'position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 moves e1h1',
      'go depth 2',
    );
    await h.waitLine(bestmove);
    expect(h.player().requests[0]).toMatchObject({ variant: 'fromPosition', start: 'r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1', moves: ['e1g1'] });
    h.send('setoption name UCI_Chess960 value true', 'position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 moves e1h1', 'go depth 2');
    await h.waitLine((l) => bestmove(l) && h.lines.filter(bestmove).length === 2);
    expect(h.player().requests[1]).toMatchObject({ variant: 'chess960', start: 'r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1', moves: ['e1h1'] });
    h.send('position startpos moves g1f3', 'go depth 1');
    await h.waitLine((l) => bestmove(l) && h.lines.filter(bestmove).length === 3);
    expect(h.player().requests[2]).toMatchObject({ variant: 'chess960', start: 'startpos', moves: ['g1f3'] });
  });
});

describe('UCI searching', () => {
  it('maps every go form to the GoRequest the Player gets', async () => {
    const h = harness(uciDialect);
    const t0 = Date.now();
    h.send('position startpos moves d2d4');
    const forms = [
      'go wtime 1000 btime 2000 winc 10 binc 20 movestogo 7',
      'go depth 3',
      'go nodes 500',
      'go movetime 40',
      'go mate 2',
    ];
    for (const f of forms) h.send(f);
    await h.waitLine(() => h.lines.filter(bestmove).length === forms.length);
    const p = { game: 'chess', variant: 'standard', start: 'startpos', moves: ['d2d4'] };
    expect(h.player().requests).toEqual([
      { ...p, clock: { firstMs: 1000, secondMs: 2000, firstIncMs: 10, secondIncMs: 20, byoyomiMs: 0, movesToGo: 7 } },
      { ...p, limits: { depth: 3 } },
      { ...p, limits: { nodes: 500 } },
      { ...p, limits: { movetimeMs: 40 } },
      { ...p, limits: { depth: 3 } },
    ]);
    // Each request carries the moment its `go` line arrived: the GUI's clock runs from there.
    for (const at of h.player().sentAts) expect(at).toBeGreaterThanOrEqual(t0);
    for (const at of h.player().sentAts) expect(at).toBeLessThanOrEqual(Date.now());
  });

  it('answers isready at once during a search, and stop ends it with a bestmove', async () => {
    const h = harness(uciDialect, {
      answer: () => ({ move: 'd2d4', ponder: 'd7d5' }),
      infos: [{ depth: 3, seldepth: 5, score: { cp: 17 }, nodes: 900, nps: 9000, timeMs: 100, pv: ['d2d4', 'd7d5'], hashfull: 4 }],
    });
    h.send('isready');
    await h.waitLine((l) => l === 'readyok');
    h.send('position startpos', 'go infinite');
    await h.waitLine((l) => l.startsWith('info depth'));
    await settle();
    expect(h.session.searching()).toBe(true);
    h.send('isready');
    // Synchronously: no await between the command and the answer.
    expect(h.lines.at(-1)).toBe('readyok');
    expect(h.lines.some(bestmove)).toBe(false);
    const t0 = performance.now();
    h.send('stop');
    expect(await h.waitLine(bestmove)).toBe('bestmove d2d4 ponder d7d5');
    // The mock answers stop at once; the bound only has to tell that from a search left running, with
    // room for a busy machine (stop latency itself is measured by `npm run bench`, stop-latency).
    expect(performance.now() - t0).toBeLessThan(5000);
    expect(h.lines).toEqual([
      'readyok',
      'info depth 3 seldepth 5 score cp 17 nodes 900 nps 9000 hashfull 4 time 100 pv d2d4 d7d5',
      'readyok',
      'bestmove d2d4 ponder d7d5',
    ]);
    expect(h.session.searching()).toBe(false);
  });

  it('does not lose a stop sent in the same tick as go', async () => {
    const h = harness(uciDialect);
    h.send('position startpos', 'go infinite', 'stop');
    expect(await h.waitLine(bestmove)).toBe('bestmove e2e4');
    h.send('go infinite', 'isready', 'stop');
    await h.waitLine(() => h.lines.filter(bestmove).length === 2);
    expect(h.lines).toEqual(['bestmove e2e4', 'readyok', 'bestmove e2e4']);
  });

  it('holds the bestmove of go infinite until stop even when the search ends early', async () => {
    // `hang: false` and an answer at once: the Player ends, the session must still wait for stop.
    const h = harness(uciDialect, { answer: () => ({ move: 'g1f3' }) });
    const p = h.session;
    h.send('go infinite');
    await settle();
    // The mock waits for stop on infinite; simulate an early end by stopping the player directly.
    h.player().stop();
    await settle();
    expect(h.lines).toEqual([]);
    expect(p.searching()).toBe(true);
    h.send('stop');
    expect(await h.waitLine(bestmove)).toBe('bestmove g1f3');
    // That stop must not leak into the next search.
    h.send('go infinite');
    await new Promise((r) => setTimeout(r, 30));
    expect(h.player().stopWord).toBe(false);
    expect(h.lines).toEqual(['bestmove g1f3']);
    h.send('stop');
    await h.waitLine(() => h.lines.length === 2);
  });

  it('ponders until ponderhit, then answers; stop during ponder answers too', async () => {
    const h = harness(uciDialect, { answer: (r) => ({ move: r.moves.length === 2 ? 'g1f3' : 'g8f6' }) });
    h.send('position startpos moves e2e4 e7e5', 'go ponder wtime 1000 btime 1000');
    await settle();
    expect(h.lines).toEqual([]);
    expect(h.player().requests[0]!.ponder).toBe(true);
    h.send('ponderhit');
    expect(await h.waitLine(bestmove)).toBe('bestmove g1f3');
    h.send('position startpos moves e2e4 e7e5 g1f3 b8c6 f1b5', 'go ponder wtime 900 btime 900', 'stop');
    await h.waitLine(() => h.lines.filter(bestmove).length === 2);
    expect(h.lines.at(-1)).toBe('bestmove g8f6');
  });

  it('answers 0000 when there is no legal move, and a legal move when the Player fails', async () => {
    const h = harness(uciDialect, { answer: () => ({ move: 'resign' }) });
    h.send('position fen 7k/6Q1/6K1/8/8/8/8/8 b - - 0 1', 'go depth 2');
    expect(await h.waitLine(bestmove)).toBe('bestmove 0000');
    const f = harness(uciDialect, { fail: true });
    f.send('position startpos moves e2e4', 'go movetime 10');
    expect(await f.waitLine(bestmove)).toBe('bestmove a7a5');
    expect(f.lines[0]).toBe('info string error: search failed: mock failure');
  });

  it('prints the final info when it differs from the last one sent', async () => {
    const info = { depth: 5, seldepth: 7, score: { mate: 3 }, nodes: 4000, nps: 40000, timeMs: 100, pv: ['h5f7'] };
    const h = harness(uciDialect, { answer: () => ({ move: 'h5f7', info: { ...info, nodes: 4100 } }), infos: [info] });
    h.send('position startpos moves e2e4 e7e5 f1c4 b8c6 d1h5 g8f6', 'go depth 5');
    await h.waitLine(bestmove);
    expect(h.lines).toEqual([
      'info depth 5 seldepth 7 score mate 2 nodes 4000 nps 40000 time 100 pv h5f7',
      'info depth 5 seldepth 7 score mate 2 nodes 4100 nps 40000 time 100 pv h5f7',
      'bestmove h5f7',
    ]);
  });

  it('answers a move that is not legal with the Thinker\'s fallback: the first PV move when legal, else the first legal move', async () => {
    const info = { depth: 4, score: { cp: 20 }, nodes: 900, nps: 9000, timeMs: 100, pv: ['g1f3', 'b8c6'] };
    const pv = harness(uciDialect, { answer: () => ({ move: 'e2e5', info }) });
    pv.send('position startpos', 'go depth 4');
    expect(await pv.waitLine(bestmove)).toBe('bestmove g1f3');
    const first = harness(uciDialect, { answer: () => ({ move: 'e2e5', info: { ...info, pv: ['e2e5'] } }) });
    first.send('position startpos', 'go depth 4');
    const legal = first.session.currentPosition().game;
    expect(await first.waitLine(bestmove)).toBe(`bestmove ${legal.moveToText(legal.legalMoves()[0])}`);
  });

  it('runs go perft on the position', async () => {
    const h = harness(uciDialect);
    h.send('position startpos', 'go perft 2');
    await h.session.idle();
    expect(h.lines.length).toBe(22);
    expect(h.lines.at(-1)).toBe('Nodes searched: 400');
    expect(h.lines).toContain('g1f3: 20');
    h.send('position startpos moves e2e4 e7e5', 'go perft 3');
    await h.session.idle();
    expect(h.lines.at(-1)).toBe('Nodes searched: 24825');
  });

  it('quits: stops the search silently and closes the Player', async () => {
    const h = harness(uciDialect);
    h.send('go infinite');
    await settle();
    h.send('quit');
    await settle();
    expect(h.quitted()).toBe(true);
    expect(h.player().closed).toBe(true);
    expect(h.lines).toEqual([]);
    h.send('uci');
    expect(h.lines).toEqual([]);
  });

  it('answers an isready still pending at quit, then quits (printf "uci\\nisready\\nquit\\n" | kishi uci)', async () => {
    const h = harness(uciDialect);
    h.send('uci', 'isready', 'quit');
    await h.waitLine((l) => l === 'readyok');
    await settle();
    expect(h.quitted()).toBe(true);
    expect(h.lines.slice(-2)).toEqual(['uciok', 'readyok']);
    // No Player is made at quit only to be closed.
    expect(h.players.length).toBe(0);
  });

  it('answers isready after the work queued before it, even when quit follows at once', async () => {
    const h = harness(uciDialect);
    h.send('isready');
    await h.waitLine((l) => l === 'readyok');
    h.send('position startpos', 'go perft 1', 'isready', 'quit');
    await settle();
    await h.waitLine((l) => l === 'Nodes searched: 20');
    expect(h.lines.slice(-2)).toEqual(['Nodes searched: 20', 'readyok']);
    expect(h.quitted()).toBe(true);
    expect(h.player().closed).toBe(true);
  });

  it('reports unknown commands and ignores USI words', () => {
    const h = harness(uciDialect);
    h.send('flip', 'usinewgame', 'gameover win', '   ', 'debug on');
    expect(h.lines).toEqual(['info string unknown command: flip', 'info string unknown command: usinewgame', 'info string unknown command: gameover win']);
  });
});

describe('info lines', () => {
  it('writes mate in moves for UCI and in plies for USI', () => {
    expect([1, 2, 3, 5, -2, -4, -1].map(mateMoves)).toEqual([1, 1, 2, 3, -1, -2, -1]);
    const info = { depth: 7, score: { mate: -4 }, nodes: 10, nps: 100, timeMs: 100, pv: [] };
    expect(infoLine(info, 'uci')).toBe('info depth 7 score mate -2 nodes 10 nps 100 time 100');
    expect(infoLine(info, 'usi')).toBe('info depth 7 score mate -4 nodes 10 nps 100 time 100');
  });

  it('writes a string last, on one line', () => {
    const info = { depth: 3, score: { cp: 12 }, nodes: 10, nps: 100, timeMs: 100, pv: ['e2e4'], string: 'td search: 5 simulations\nof 4 plies' };
    expect(infoLine(info, 'uci')).toBe('info depth 3 score cp 12 nodes 10 nps 100 time 100 pv e2e4 string td search: 5 simulations of 4 plies');
  });

  it('writes the multipv rank after the depths, in both protocols', () => {
    const info = { depth: 9, seldepth: 14, multipv: 2, score: { cp: -31 }, nodes: 5000, nps: 50000, timeMs: 100, pv: ['7g7f', '3c3d'] };
    expect(infoLine(info, 'usi')).toBe('info depth 9 seldepth 14 multipv 2 score cp -31 nodes 5000 nps 50000 time 100 pv 7g7f 3c3d');
    expect(infoLine({ ...info, pv: ['e2e4'] }, 'uci')).toBe('info depth 9 seldepth 14 multipv 2 score cp -31 nodes 5000 nps 50000 time 100 pv e2e4');
  });

  it('writes checkmate answers', () => {
    expect(checkmateLine({ move: 'nomate' })).toBe('checkmate nomate');
    expect(checkmateLine({ move: 'timeout' })).toBe('checkmate timeout');
    expect(checkmateLine({ move: 'resign' })).toBe('checkmate nomate');
    expect(checkmateLine({ move: 'G*5b' })).toBe('checkmate G*5b');
    expect(
      checkmateLine({ move: 'P*1c', info: { depth: 3, score: { mate: 3 }, nodes: 5, nps: 0, timeMs: 0, pv: ['P*1c', '1b1c', 'G*1d'] } }),
    ).toBe('checkmate P*1c 1b1c G*1d');
  });
});
