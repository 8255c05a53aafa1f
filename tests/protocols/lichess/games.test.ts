import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readGameLog } from '../../../src/records/game-log.js';
import type { Harness } from './helpers/harness.js';
import { startHarness } from './helpers/harness.js';
import { FirstLegalPlayer } from '../../fakes/player.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const records = (h: Harness, id: string): { pgn: string; log: ReturnType<typeof readGameLog> } => ({
  pgn: readFileSync(join(h.recordsDir, 'lichess', `${id}.pgn`), 'utf8'),
  log: readGameLog(join(h.recordsDir, 'lichess', `${id}.jsonl`)),
});

describe('full games against the local server', () => {
  it('wins by mate (Scholar’s mate), with greetings, PGN and game log', async () => {
    h = await startHarness({
      player: () => new FirstLegalPlayer({ script: ['e2e4', 'f1c4', 'd1h5', 'h5f7'], score: (i) => ({ cp: 30 + 100 * i }) }),
    });
    const id = h.server.challenge({ from: 'Patzer', color: 'black', clock: { limit: 60, increment: 1 }, opponent: { script: ['e7e5', 'b8c6', 'g8f6'] } });
    const game = await h.server.waitForEnd(id);
    expect(game.status).toBe('mate');
    expect(game.winner).toBe('white');
    expect(game.moves.join(' ')).toBe('e2e4 e7e5 f1c4 b8c6 d1h5 g8f6 h5f7');
    await h.server.waitFor(() => h!.bot.finished.length === 1);
    expect(h.bot.finished[0]).toMatchObject({ gameId: id, status: 'mate', winner: 'white', ourColor: 'white', plies: 7 });
    // Greetings to both rooms at the start, goodbyes at the end.
    await h.server.waitFor(() => game.chat.length >= 4);
    expect(game.chat.map((c) => `${c.room}:${c.text}`)).toEqual([
      'player:Hi Patzer, I am KishiBot!',
      'spectator:Hello spectators',
      'player:Good game, Patzer!',
      'spectator:Bye spectators',
    ]);
    const { pgn, log } = records(h, id);
    expect(pgn).toContain('[Result "1-0"]');
    expect(pgn).toContain('[White "KishiBot"]');
    expect(pgn).toContain('[Termination "Normal"]');
    const moves = pgn.replace(/\s+/g, ' ');
    expect(moves).toContain('1. e4 { [%eval 0.30,1]');
    expect(moves).toContain('4. Qxf7# { [%eval 3.30,1]');
    expect(pgn.trim().endsWith('1-0')).toBe(true);
    expect(log.isOk).toBe(true);
    const l = log.unwrap();
    expect(l.header).toMatchObject({ type: 'header', version: 1, game: 'chess', variant: 'standard', server: 'lichess', gameId: id, ourSide: 'first' });
    expect(l.moves.map((m) => m.move)).toEqual(['e2e4', 'e7e5', 'f1c4', 'b8c6', 'd1h5', 'g8f6', 'h5f7']);
    expect(l.moves.filter((m) => m.ours).map((m) => m.search?.score)).toEqual([{ cp: 30 }, { cp: 130 }, { cp: 230 }, { cp: 330 }]);
    expect(l.moves[6]?.search?.pvLeaf).toBe('r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4');
    expect(l.moves[0]?.position).toBe('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1');
    expect(l.moves.filter((m) => !m.ours).every((m) => m.search === undefined)).toBe(true);
    expect(l.result).toMatchObject({ type: 'result', winner: 'first', status: 'mate', plies: 7 });
    expect(existsSync(join(h.recordsDir, 'lichess', `${id}.jsonl.part`))).toBe(false);
    expect(h.schemas.failures).toEqual([]);
    expect(h.schemas.total()).toBeGreaterThan(10);
  });

  it('loses by mate (Fool’s mate) and records 0-1', async () => {
    h = await startHarness({ player: () => new FirstLegalPlayer({ script: ['f2f3', 'g2g4'] }) });
    const id = h.server.challenge({ from: 'Shark', color: 'black', opponent: { script: ['e7e5', 'd8h4'] } });
    const game = await h.server.waitForEnd(id);
    expect([game.status, game.winner, game.moves.join(' ')]).toEqual(['mate', 'black', 'f2f3 e7e5 g2g4 d8h4']);
    await h.server.waitFor(() => h!.bot.finished.length === 1);
    const { pgn, log } = records(h, id);
    expect(pgn).toContain('[Result "0-1"]');
    expect(pgn.replace(/\s+/g, ' ')).toContain('2. g4 { [%eval 0.00,1]');
    expect(pgn).toContain('Qh4#');
    expect(log.unwrap().result).toMatchObject({ winner: 'second', status: 'mate', plies: 4 });
    expect(h.schemas.failures).toEqual([]);
  });

  it('draws by agreement: accepts the opponent’s offer when its own draw condition holds', async () => {
    h = await startHarness({
      config: { drawOrResign: { offerDrawEnabled: true, offerDrawMoves: 2, offerDrawScoreCp: 20, offerDrawPieces: 32, acceptDraws: true } },
      player: () => new FirstLegalPlayer({ score: () => ({ cp: 5 }) }),
    });
    // The opponent offers a draw with its first move (too early: we have one score) and again with its second.
    const id = h.server.challenge({
      from: 'Peacemaker',
      color: 'black',
      opponent: { script: [{ type: 'move', uci: 'e7e5', offerDraw: true }, { type: 'move', uci: 'g8f6', offerDraw: true }, 'f8c5'] },
    });
    const game = await h.server.waitForEnd(id);
    expect(game.status).toBe('draw');
    expect(game.winner).toBeUndefined();
    expect(game.moves.length).toBe(4);
    const draws = h.server.stats.requests.filter((r) => r.path.startsWith(`/api/bot/game/${id}/draw/`)).map((r) => r.path);
    expect(draws).toEqual([`/api/bot/game/${id}/draw/no`, `/api/bot/game/${id}/draw/yes`]);
    await h.server.waitFor(() => h!.bot.finished.length === 1);
    const { pgn, log } = records(h, id);
    expect(pgn).toContain('[Result "1/2-1/2"]');
    expect(log.unwrap().result).toMatchObject({ winner: null, status: 'draw', plies: 4 });
    expect(h.schemas.failures).toEqual([]);
  });

  it('draws by threefold repetition, ended by lichess, not by us', async () => {
    h = await startHarness({ player: () => new FirstLegalPlayer({ script: ['g1f3', 'f3g1', 'g1f3', 'f3g1'] }) });
    const id = h.server.challenge({ from: 'Shuffler', color: 'black', opponent: { script: ['g8f6', 'f6g8', 'g8f6', 'f6g8'] } });
    const game = await h.server.waitForEnd(id);
    expect([game.status, game.moves.length]).toEqual(['draw', 8]);
    await h.server.waitFor(() => h!.bot.finished.length === 1);
    expect(h.bot.finished[0]).toMatchObject({ status: 'draw', plies: 8 });
  });
});
