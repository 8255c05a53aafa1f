/**
 * `kishi uci`: the chess engine (standard and Chess960) over UCI on stdin/stdout, for GUIs,
 * cutechess-cli and `kishi match`. See src/protocols/uci/engine-session.ts for the protocol.
 */
import type { Command } from 'commander';
import { uciDialect } from '../protocols/uci/uci-dialect.js';
import { engineCommand } from './engine-command.js';

export function register(program: Command): void {
  engineCommand(program, 'uci', 'speak UCI on stdin/stdout: the chess engine (standard and Chess960)', uciDialect);
}
