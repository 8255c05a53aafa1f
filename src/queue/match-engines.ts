/**
 * Engines of queued matches, named by id and never by command line. Whoever can write to Redis can
 * edit a job; if a job carried a command line, that would be code execution on every worker. So a
 * match job names each engine by an id (`kishi`: this installation of Kishi, as `cmd=kishi` does
 * locally; any other id: an engine the worker's own config lists under `queue.engines`), with
 * `setoption` values checked against a narrow pattern (no paths, no line breaks that would inject
 * protocol commands, no option whose name says it writes a file). The worker resolves the id with
 * its allow-list and refuses an id it does not know.
 */
import { KishiError, Result } from '../core/result.js';
import { parseEngineSpec, type EngineSpec, type TimeOverrides } from '../engines/engine-spec.js';
import type { RemoteMatchSettings } from '../match/remote-games.js';
import type { TimeControl } from '../match/time-control.js';

/** The id of Kishi itself (`cmd=kishi`). */
export const KISHI_ENGINE = 'kishi';

/** An engine as a match job names it. */
export interface EngineRef {
  /** `kishi`, or an id from the worker's `queue.engines`. */
  readonly engine: string;
  /** Display name (the match's name for the engine). */
  readonly name?: string;
  /** `setoption` values, checked by {@link optionProblem}. */
  readonly options: Readonly<Record<string, string>>;
  readonly time: TimeOverrides;
}

/** A match job's settings: {@link RemoteMatchSettings} with engines by reference. */
export interface MatchJobSettings extends Omit<RemoteMatchSettings, 'engines'> {
  readonly engines: readonly [{ readonly ref: EngineRef; readonly tc: TimeControl }, { readonly ref: EngineRef; readonly tc: TimeControl }];
}

const ID = /^[A-Za-z0-9][A-Za-z0-9_.+-]{0,63}$/;
const OPTION_NAME = /^[A-Za-z0-9][A-Za-z0-9 _.+-]{0,63}$/;
/** Values: words and numbers; no `/` or `\` (paths), no line breaks (a second protocol command). */
const OPTION_VALUE = /^[A-Za-z0-9 _.+-]{0,64}$/;
/** Options that name files the engine reads or writes (Stockfish's `Debug Log File`, `EvalFile`, ...). */
const FILE_OPTION = /file|path|dir|log|book/i;

/** Why a `setoption` pair may not travel in a job, or undefined when it may. */
export const optionProblem = (name: string, value: string): string | undefined => {
  if (!OPTION_NAME.test(name)) return `option name ${JSON.stringify(name.slice(0, 80))} is not a plain word`;
  if (FILE_OPTION.test(name)) return `option ${name} names a file or directory; set it in the worker's queue.engines instead`;
  if (!OPTION_VALUE.test(value)) return `option ${name}: value ${JSON.stringify(value.slice(0, 80))} is not a plain word or number`;
  return undefined;
};

/**
 * The producer's side: an engine spec of `kishi match -e` as a job reference. Kishi itself travels
 * with its options; another engine by its `name`, which the workers must list in `queue.engines`
 * (its command line stays on the producer and is not sent).
 */
export function engineRefOf(spec: EngineSpec): Result<EngineRef, KishiError> {
  const bad = (m: string): Result<never, KishiError> => Result.err(new KishiError('ERR_ENGINE_SPEC', `--queue: ${m}`));
  for (const [k, v] of Object.entries(spec.options)) {
    const why = optionProblem(k, v);
    if (why !== undefined) return bad(why);
  }
  const common = { ...(spec.name !== undefined ? { name: spec.name } : {}), options: { ...spec.options }, time: { ...spec.time } };
  if (spec.kishi) {
    if (spec.args.length > 0 || spec.cwd !== undefined) return bad('cmd=kishi takes no args= or dir= in a queued match (workers run their own installation; use option.<Name>=)');
    return Result.ok({ engine: KISHI_ENGINE, ...common });
  }
  if (spec.name === undefined || !ID.test(spec.name)) {
    return bad(`engine ${JSON.stringify(spec.command)} needs name=<id>: workers run only engines their config lists (queue.engines: ["name=<id>,cmd=..."]), found by that id`);
  }
  return Result.ok({ engine: spec.name, ...common });
}

/** The worker's allow-list: engine specs from its config (`queue.engines`), by their `name`. */
export function parseEngineAllowList(specs: readonly string[]): Result<ReadonlyMap<string, EngineSpec>, KishiError> {
  const out = new Map<string, EngineSpec>();
  for (const text of specs) {
    const s = parseEngineSpec(text);
    if (s.isErr) return Result.err(new KishiError('ERR_CONFIG', `queue.engines: ${s.error.message}`));
    const id = s.value.name;
    if (id === undefined || !ID.test(id)) return Result.err(new KishiError('ERR_CONFIG', `queue.engines: ${JSON.stringify(text)} needs name=<id> (letters, digits, _.+-)`));
    if (id === KISHI_ENGINE) return Result.err(new KishiError('ERR_CONFIG', `queue.engines: the id ${KISHI_ENGINE} is Kishi itself and cannot be redefined`));
    if (out.has(id)) return Result.err(new KishiError('ERR_CONFIG', `queue.engines: ${id} is listed twice`));
    out.set(id, s.value);
  }
  return Result.ok(out);
}

const isRecord = (x: unknown): x is Record<string, unknown> => x !== null && typeof x === 'object' && !Array.isArray(x);

/** Time overrides from a job: known keys with values of their type only. */
function timeOf(x: unknown): TimeOverrides | string {
  if (!isRecord(x)) return 'time overrides are not an object';
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(x)) {
    if (k === 'tc' && typeof v === 'string' && /^[0-9.+/:]{1,32}$/.test(v)) out[k] = v;
    else if (['byoyomiMs', 'movetimeMs', 'nodes', 'depth'].includes(k) && typeof v === 'number' && Number.isFinite(v) && v >= 0) out[k] = v;
    else return `time override ${JSON.stringify(k)} is not valid`;
  }
  return out as TimeOverrides;
}

/** An engine reference this worker cannot run (ERR_QUEUE_ENGINE). */
const refused = (m: string): KishiError => new KishiError('ERR_QUEUE_ENGINE', m);

/**
 * The worker's side: the engine spec a job's reference stands for, or why this worker cannot run
 * it. Only the reference's id, options and time overrides are used; command, arguments, directory
 * and protocol of another engine come from the worker's own allow-list.
 */
export function resolveEngineRef(ref: unknown, allow: ReadonlyMap<string, EngineSpec>): Result<EngineSpec, KishiError> {
  if (!isRecord(ref)) return Result.err(refused('an engine reference is not an object'));
  const { engine, name, options, time } = ref;
  if (typeof engine !== 'string' || !ID.test(engine)) return Result.err(refused(`engine id ${JSON.stringify(String(engine).slice(0, 80))} is not valid`));
  if (name !== undefined && (typeof name !== 'string' || name.length > 100 || /[\r\n\0]/.test(name))) return Result.err(refused('engine name is not valid'));
  if (!isRecord(options)) return Result.err(refused('engine options are not an object'));
  const opts: Record<string, string> = {};
  for (const [k, v] of Object.entries(options)) {
    if (typeof v !== 'string') return Result.err(refused(`option ${k} is not a string`));
    const why = optionProblem(k, v);
    if (why !== undefined) return Result.err(refused(why));
    opts[k] = v;
  }
  const t = timeOf(time);
  if (typeof t === 'string') return Result.err(refused(t));
  const named = name !== undefined ? { name } : {};
  if (engine === KISHI_ENGINE) return Result.ok({ ...named, command: 'kishi', args: [], options: opts, time: t, kishi: true });
  const base = allow.get(engine);
  if (base === undefined) return Result.err(refused(`engine ${engine} is not in this worker's queue.engines (it runs ${[KISHI_ENGINE, ...allow.keys()].join(', ')})`));
  // The configured options first, the job's on top (checked above; file options cannot come from a job).
  return Result.ok({ ...base, ...named, options: { ...base.options, ...opts }, time: t });
}

/** The worker's side for a whole match job: its settings with engines resolved, or why not. */
export function resolveMatchSettings(s: MatchJobSettings, allow: ReadonlyMap<string, EngineSpec>): Result<RemoteMatchSettings, KishiError> {
  if (!isRecord(s) || !Array.isArray(s.engines) || s.engines.length !== 2) return Result.err(refused('the match settings do not name two engines'));
  const specs: EngineSpec[] = [];
  for (const e of s.engines) {
    if (!isRecord(e)) return Result.err(refused('an engine entry is not an object'));
    const r = resolveEngineRef(e.ref, allow);
    if (r.isErr) return Result.err(r.error);
    specs.push(r.value);
  }
  return Result.ok({ ...s, engines: [{ spec: specs[0]!, tc: s.engines[0].tc }, { spec: specs[1]!, tc: s.engines[1].tc }] });
}
