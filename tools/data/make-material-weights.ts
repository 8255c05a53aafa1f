/**
 * Writes the material-only weights files, models/chess-material.json and
 * models/shogi-material.json (see src/eval/linear/material.ts for the values and their source):
 * the reference of TreeStrap and TD-Leaf runs and matches. The default weights,
 * models/<game>-linear.json, are TreeStrap's where it beat these (their manifests say).
 * Run: npx tsc -p . && node dist/tools/data/make-material-weights.js
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CHESS_FEATURES } from '../../src/eval/linear/chess-features.js';
import { chessMaterialTheta, shogiMaterialTheta } from '../../src/eval/linear/material.js';
import { SHOGI_FEATURES } from '../../src/eval/linear/shogi-features.js';
import { serializeWeights } from '../../src/eval/linear/weights.js';
import { packageRoot } from '../../src/core/package-path.js';

const root = packageRoot();
const date = new Date().toISOString().slice(0, 10);
writeFileSync(
  join(root, 'models/chess-material.json'),
  serializeWeights(CHESS_FEATURES, chessMaterialTheta(), {
    method: 'material',
    command: 'node dist/tools/data/make-material-weights.js',
    date,
    notes: 'material only: pawn 100, knight 300, bishop 300, rook 500, queen 900 centipawns; every other weight 0',
  }),
);
writeFileSync(
  join(root, 'models/shogi-material.json'),
  serializeWeights(SHOGI_FEATURES, shogiMaterialTheta(), {
    method: 'material',
    command: 'node dist/tools/data/make-material-weights.js',
    date,
    notes:
      "material only, YaneuraOu's piece values (Apery WCSC26: pawn 90 .. dragon 1395) rescaled by 10/9 (pawn 100): lance 350, knight 450, silver 550, gold 600, bishop 950, rook 1100, tokin/promoted lance/knight/silver 600, horse 1050, dragon 1550; pieces in hand as on the board; every other weight 0",
  }),
);
