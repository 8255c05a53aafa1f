/**
 * `kishi train`: the learners, one subcommand each. A subcommand lives in its own file
 * (`src/cli/train-<name>.ts`) and exports `register(train: Command)`, which adds itself to the
 * `train` group; list it in `TRAIN_SUBCOMMANDS` below.
 *
 *   kishi train treestrap --game chess --method treestrap-ab --init random --games 200 --out runs/ts-chess
 *   kishi train tdleaf --logs records --game chess --weights models/chess-linear.json --out models/chess-tdleaf.json
 */
import type { Command } from 'commander';
import { register as registerTdLeaf } from './train-tdleaf.js';
import { register as registerRatings } from './train-ratings.js';
import { register as registerTreestrap } from './train-treestrap.js';
import { register as registerAlphaZero } from './train-alphazero.js';

/** The subcommand registrars of `kishi train`. */
export const TRAIN_SUBCOMMANDS: readonly ((train: Command) => void)[] = [registerTreestrap, registerRatings, registerTdLeaf, registerAlphaZero];

export function register(program: Command): void {
  const train = program.command('train').description('learn the evaluation: treestrap (self-play), tdleaf (game logs), alphazero (the MCTS net), ratings (learning curves of training runs)');
  for (const add of TRAIN_SUBCOMMANDS) add(train);
}
