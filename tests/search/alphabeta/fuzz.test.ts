/**
 * Fuzz: random positions (random playouts, some to the end of the game) and tiny random node
 * budgets; the engine must always answer a legal move, or `resign` exactly when there is no legal
 * move, or (shogi) `win` exactly when the entering-king declaration is legal. Moves are judged by
 * the reference libraries (chessops, shogiops through the shogi adapter), not by our generators.
 */
import { Chess } from 'chessops/chess';
import { parseFen } from 'chessops/fen';
import { parseUci } from 'chessops/util';
import { describe, expect, it } from 'vitest';
import { FastChessBoard } from '../../../src/games/chess/fast/board.js';
import { FastShogiBoard, newMoveList } from '../../../src/games/shogi/fast/board.js';
import { canDeclare } from '../../../src/games/shogi/entering-king.js';
import { parseShogiSfen } from '../../../src/games/shogi/sfen.js';
import { parseUsiMove } from '../../../src/games/shogi/usi.js';
import { chessMaterialTheta, shogiMaterialTheta } from '../../../src/eval/linear/material.js';
import { AlphaBetaEngine } from '../../../src/player/alphabeta-engine.js';
import { rng } from './helpers.js';

const POSITIONS = 10_000;
/** Positions per test case: vitest's worker must get the event loop back now and then. */
const CHUNK = 1_000;
const CHUNKS = [...Array(POSITIONS / CHUNK).keys()];

const signal = new Int32Array(new SharedArrayBuffer(8));
/** Lets vitest's worker answer its RPC between long synchronous stretches. */
const breathe = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('fuzz: the engine answers every position legally', () => {
  it.each(CHUNKS)(`chess: ${CHUNK} random positions, part %i of ${POSITIONS / CHUNK}`, async (chunk) => {
    const rand = rng(2024 + chunk);
    const engine = new AlphaBetaEngine({ game: 'chess', theta: chessMaterialTheta(), hashMb: 2, moveOverheadMs: 0 });
    const board = FastChessBoard.fromFen('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1').unwrap();
    const list = new Int32Array(256);
    let resigned = 0;
    for (let i = 0; i < CHUNK; i++) {
      if (i % 100 === 99) await breathe();
      // A random game prefix; every 10th runs to the end (mate, stalemate) or 300 plies.
      const plies = i % 10 === 0 ? 300 : Math.floor(rand() * 120);
      let made = 0;
      for (; made < plies; made++) {
        const n = board.generateMoves(list);
        if (n === 0) break;
        board.makeMove(list[Math.floor(rand() * n)]!);
      }
      const fen = board.toFen();
      for (let k = 0; k < made; k++) board.unmakeMove();
      const r = engine.go({ game: 'chess', variant: 'standard', start: fen, moves: [], limits: { nodes: 1 + Math.floor(rand() * 300) } }, signal);
      expect(r.isOk, fen).toBe(true);
      const pos = Chess.fromSetup(parseFen(fen).unwrap()).unwrap();
      const move = r.unwrap().move;
      if (move === 'resign') {
        resigned++;
        expect(pos.isEnd(), fen).toBe(true);
        expect(pos.isCheckmate() || pos.isStalemate(), fen).toBe(true);
      } else {
        const m = parseUci(move);
        expect(m !== undefined && pos.isLegal(m), `${fen} ${move}`).toBe(true);
      }
    }
    expect(resigned).toBeGreaterThan(0);
  });

  it.each(CHUNKS)(`shogi: ${CHUNK} random positions, part %i of ${POSITIONS / CHUNK}`, async (chunk) => {
    const rand = rng(4048 + chunk);
    const engine = new AlphaBetaEngine({ game: 'shogi', theta: shogiMaterialTheta(), hashMb: 2, moveOverheadMs: 0 });
    const board = FastShogiBoard.fromSfen('lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1').unwrap();
    const list = newMoveList();
    let resigned = 0;
    for (let i = 0; i < CHUNK; i++) {
      if (i % 100 === 99) await breathe();
      const plies = i % 10 === 0 ? 400 : Math.floor(rand() * 200);
      let made = 0;
      for (; made < plies; made++) {
        const n = board.generateMoves(list);
        if (n === 0) break;
        board.makeMove(list[Math.floor(rand() * n)]!);
      }
      const sfen = board.toSfen();
      for (let k = 0; k < made; k++) board.unmakeMove();
      const r = engine.go({ game: 'shogi', variant: 'standard', start: sfen, moves: [], limits: { nodes: 1 + Math.floor(rand() * 300) } }, signal);
      expect(r.isOk, sfen).toBe(true);
      const pos = parseShogiSfen(sfen).unwrap();
      const move = r.unwrap().move;
      if (move === 'resign') {
        resigned++;
        expect(pos.isCheckmate() || !pos.hasDests(), sfen).toBe(true);
      } else if (move === 'win') {
        expect(canDeclare(pos), sfen).toBe(true);
      } else {
        expect(canDeclare(pos), `${sfen}: declaration missed`).toBe(false);
        const m = parseUsiMove(move);
        expect(m !== undefined && pos.isLegal(m), `${sfen} ${move}`).toBe(true);
      }
    }
    expect(resigned).toBeGreaterThan(0);
  });
});
