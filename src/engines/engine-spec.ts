/**
 * Engine specs, one string per engine, as `kishi match` / `kishi suite` take them (cutechess-cli's
 * `-engine` keys, comma-separated) and as `kishi csa --engine` / `csa.engine` take them:
 *
 *   name=sf-skill-3,cmd=/usr/games/stockfish,option.Skill Level=3,option.Hash=16
 *   cmd=kishi                        Kishi itself as a child process (`node bin/kishi.js uci|usi`)
 *   /usr/games/fairy-stockfish       a bare command
 *   usi:/opt/yane --threads=2        a protocol and a command line (the CSA bridge's form)
 *
 * Keys: `name`, `cmd`, `args` (space-separated), `dir` (working directory), `proto` (uci|usi,
 * default by game), `option.<Name>` (setoption), `rating` (a gauntlet anchor), and per-engine time
 * overrides `tc` (cutechess syntax, seconds), `byoyomi` (seconds), `movetime` (ms), `nodes`,
 * `depth`; `swapclocks` (USI engines that read btime/wtime the wrong way round, see
 * {@link EngineSpec.swapClocks}). Values may hold spaces and `=`, not commas.
 */
import { existsSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { GameKind } from '../core/game.js';
import { KishiError, Result } from '../core/result.js';
import { keyValueRecord, parseKeyValues, parseNumber } from '../core/key-values.js';

export const ENGINE_PROTOCOLS = ['uci', 'usi'] as const;
export type EngineProtocol = (typeof ENGINE_PROTOCOLS)[number];

/** Per-engine overrides of the match's time control (raw, resolved by the CLI). */
export interface TimeOverrides {
  readonly tc?: string;
  readonly byoyomiMs?: number;
  readonly movetimeMs?: number;
  readonly nodes?: number;
  readonly depth?: number;
}

export interface EngineSpec {
  /** Display name; defaults to the engine's `id name` once started (or the command's base name). */
  readonly name?: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd?: string;
  /** undefined: `uci` for chess, `usi` for shogi. */
  readonly protocol?: EngineProtocol;
  /** `setoption` values in order. */
  readonly options: Readonly<Record<string, string>>;
  readonly time: TimeOverrides;
  /** Anchor rating for a gauntlet fit. */
  readonly rating?: number;
  /** The spec named Kishi itself (`cmd=kishi`): the command is resolved per game. */
  readonly kishi: boolean;
  /**
   * USI only: send each side's clock under the other's name (`btime` <-> `wtime`, `binc` <-> `winc`),
   * for engines that read them swapped. Debian's Fairy-Stockfish 11.1 does: asked to move as sente
   * with `go btime 2000 wtime 300000` it thinks for seconds, with the times swapped for 0.1 s.
   */
  readonly swapClocks?: boolean;
}

const KEYS = ['name', 'cmd', 'args', 'dir', 'proto', 'option.', 'rating', 'tc', 'byoyomi', 'movetime', 'nodes', 'depth', 'swapclocks'];

/** Parses one engine spec string. */
export function parseEngineSpec(text: string): Result<EngineSpec, KishiError> {
  const trimmed = text.trim();
  if (trimmed === '') return Result.err(new KishiError('ERR_ENGINE_SPEC', 'empty engine spec'));
  // `usi:<command line>` / `uci:<command line>`: the arguments may hold `=` and commas.
  const prefixed = /^(uci|usi):(.*)$/.exec(trimmed);
  if (prefixed) {
    const parts = prefixed[2]!.trim().split(/\s+/).filter((p) => p !== '');
    if (parts.length === 0) return Result.err(new KishiError('ERR_ENGINE_SPEC', `engine spec ${JSON.stringify(text)} has no command after ${prefixed[1]}:`));
    return Result.ok({ command: parts[0]!, args: parts.slice(1), protocol: prefixed[1] as EngineProtocol, options: {}, time: {}, kishi: parts[0] === 'kishi' });
  }
  // A bare command: no key=value pair at all.
  if (!trimmed.includes('=')) {
    const parts = trimmed.split(/\s+/);
    const kishi = parts[0] === 'kishi';
    return Result.ok({ command: parts[0]!, args: parts.slice(1), options: {}, time: {}, kishi });
  }
  const pairs = parseKeyValues(trimmed, 'engine spec');
  if (pairs.isErr) return Result.err(pairs.error);
  const rec = keyValueRecord(pairs.value, KEYS, `engine spec ${JSON.stringify(text)}`);
  if (rec.isErr) return Result.err(rec.error);
  const r = rec.value;
  const cmd = r['cmd'];
  if (cmd === undefined || cmd === '') return Result.err(new KishiError('ERR_ENGINE_SPEC', `engine spec ${JSON.stringify(text)} has no cmd=`));
  const proto = r['proto'];
  if (proto !== undefined && !(ENGINE_PROTOCOLS as readonly string[]).includes(proto)) {
    return Result.err(new KishiError('ERR_ENGINE_SPEC', `engine spec: proto must be uci or usi, got ${JSON.stringify(proto)}`));
  }
  const options: Record<string, string> = {};
  for (const [k, v] of pairs.value) if (k.startsWith('option.')) options[k.slice('option.'.length)] = v;

  const num = (key: string, check: (x: number) => boolean): Result<number | undefined, KishiError> =>
    r[key] === undefined ? Result.ok(undefined) : parseNumber(r[key]!, `engine spec ${key}`, check);
  const rating = num('rating', () => true);
  const byoyomi = num('byoyomi', (x) => x >= 0);
  const movetime = num('movetime', (x) => x > 0);
  const nodes = num('nodes', (x) => Number.isInteger(x) && x > 0);
  const depth = num('depth', (x) => Number.isInteger(x) && x > 0);
  for (const x of [rating, byoyomi, movetime, nodes, depth]) if (x.isErr) return Result.err(x.error);

  const time: TimeOverrides = {
    ...(r['tc'] !== undefined ? { tc: r['tc'] } : {}),
    ...(byoyomi.unwrap() !== undefined ? { byoyomiMs: Math.round(byoyomi.unwrap()! * 1000) } : {}),
    ...(movetime.unwrap() !== undefined ? { movetimeMs: movetime.unwrap()! } : {}),
    ...(nodes.unwrap() !== undefined ? { nodes: nodes.unwrap()! } : {}),
    ...(depth.unwrap() !== undefined ? { depth: depth.unwrap()! } : {}),
  };
  return Result.ok({
    ...(r['name'] ? { name: r['name'] } : {}),
    command: cmd,
    args: r['args'] ? r['args'].split(/\s+/).filter((a) => a !== '') : [],
    ...(r['dir'] ? { cwd: r['dir'] } : {}),
    ...(proto !== undefined ? { protocol: proto as EngineProtocol } : {}),
    options,
    time,
    ...(rating.unwrap() !== undefined ? { rating: rating.unwrap()! } : {}),
    kishi: cmd === 'kishi',
    ...(r['swapclocks'] !== undefined && ['', 'true', '1', 'yes'].includes(r['swapclocks']) ? { swapClocks: true } : {}),
  });
}

/** The protocol an engine speaks in a game of `game`. */
export const protocolFor = (spec: EngineSpec, game: GameKind): EngineProtocol => spec.protocol ?? (game === 'chess' ? 'uci' : 'usi');

/** A name to show before the engine has said its own. */
export const provisionalName = (spec: EngineSpec): string => spec.name ?? (spec.kishi ? 'kishi' : basename(spec.command));

/** The Kishi launcher `bin/kishi.js`, found upwards from this module (works from src/ and dist/). */
export function kishiLauncher(): string | undefined {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const candidate = join(dir, 'bin', 'kishi.js');
    if (existsSync(candidate) && existsSync(join(dir, 'package.json'))) return candidate;
    dir = resolve(dir, '..');
  }
  return undefined;
}

/** The command line to run: `cmd=kishi` becomes `node bin/kishi.js uci|usi [args]`. */
export function resolveCommand(spec: EngineSpec, game: GameKind): Result<{ command: string; args: string[] }, KishiError> {
  if (!spec.kishi) return Result.ok({ command: spec.command, args: [...spec.args] });
  const launcher = kishiLauncher();
  if (launcher === undefined) return Result.err(new KishiError('ERR_ENGINE_SPEC', 'cmd=kishi: cannot find bin/kishi.js above the running code'));
  return Result.ok({ command: process.execPath, args: [launcher, protocolFor(spec, game), ...spec.args] });
}
