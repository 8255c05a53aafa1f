/**
 * Writes the encoded reference positions of the model manifests (src/learning/alphazero/reference-inputs.ts)
 * to a file; trainer/kishi_nn/export.py runs it when it records a net's reference outputs.
 *
 *   node dist/tools/nn/reference-inputs.js --game chess --out /tmp/ref-chess.knr
 */
import { writeFileSync } from 'node:fs';
import { Command } from 'commander';
import type { GameKind } from '../../src/core/game.js';
import { referenceChunk } from '../../src/learning/alphazero/reference-inputs.js';

const opts = new Command().requiredOption('--game <game>').requiredOption('--out <file>').parse().opts<{ game: GameKind; out: string }>();
writeFileSync(opts.out, referenceChunk(opts.game));
