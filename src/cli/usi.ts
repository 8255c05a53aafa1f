/**
 * `kishi usi`: the shogi engine over USI on stdin/stdout, for ShogiHome, Shogidokoro, usi-csa
 * bridges and `kishi match`. See src/protocols/uci/engine-session.ts for the protocol.
 */
import type { Command } from 'commander';
import { usiDialect } from '../protocols/uci/usi-dialect.js';
import { engineCommand } from './engine-command.js';

export function register(program: Command): void {
  engineCommand(program, 'usi', 'speak USI on stdin/stdout: the shogi engine', usiDialect);
}
