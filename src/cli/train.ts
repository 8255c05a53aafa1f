/**
 * `kishi train`: learn evaluation weights. Each method is a subcommand in its own file:
 *   kishi train tdleaf ...      TD-Leaf(lambda) over the logs of our own games (train-tdleaf.ts)
 * (TreeStrap registers `kishi train treestrap` here as well.)
 */
import type { Command } from 'commander';
import { register as registerTdLeaf } from './train-tdleaf.js';

export function register(program: Command): void {
  const train = program.command('train').description('learn evaluation weights (tdleaf: from the logs of our own games)');
  registerTdLeaf(train);
}
