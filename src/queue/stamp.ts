/**
 * What a job requires of the worker that runs it: the same project version, queue protocol and
 * build (a hash of the compiled code: the version string is the same for every commit), and
 * byte-identical copies of the files the job reads (evaluation weights, networks, opening books),
 * named by path and SHA-256. A worker whose stamp differs refuses the job and says why (a
 * datagen chunk from other weights would silently corrupt the data set; a match game with another
 * engine build would measure something else).
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { packageRoot, resolveModelPath } from '../core/package-path.js';

/** Version of the job and result formats of this folder; bumped on any incompatible change. */
export const QUEUE_PROTOCOL = 2;

export interface JobStamp {
  /** package.json `version` of the producer. */
  readonly project: string;
  readonly protocol: number;
  /** {@link buildHash} of the producer: the code that must compute the job. */
  readonly build: string;
  /** Path as the user gave it (resolved like the models: working directory, then package root) -> SHA-256 hex. */
  readonly files: Readonly<Record<string, string>>;
}

let cachedVersion: string | undefined;

/** This installation's package.json version. */
export const projectVersion = (): string => {
  if (cachedVersion === undefined) {
    try {
      cachedVersion = String((JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version?: unknown }).version ?? 'unknown');
    } catch {
      cachedVersion = 'unknown';
    }
  }
  return cachedVersion;
};

let cachedBuild: string | undefined;

/** Every `.js` file under `dir`, as paths relative to it with `/` separators, sorted. */
const jsFiles = (dir: string): string[] => {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile() && e.name.endsWith('.js')) out.push(relative(dir, p).split(sep).join('/'));
    }
  };
  walk(dir);
  return out.sort();
};

/**
 * The code identity of this installation: SHA-256 over the compiled sources (`dist/src/**.js`,
 * each file's relative path and bytes, in sorted order). Two checkouts of different commits with
 * the same package version differ here whenever their compiled code does, so a worker with changed
 * search code cannot pass for the producer's build. `unbuilt` when dist/ is missing.
 */
export const buildHash = (): string => {
  if (cachedBuild === undefined) {
    const dir = join(packageRoot(), 'dist', 'src');
    try {
      const h = createHash('sha256');
      for (const f of jsFiles(dir)) {
        const bytes = readFileSync(join(dir, f));
        h.update(`${f}\0${bytes.length}\0`).update(bytes);
      }
      cachedBuild = h.digest('hex');
    } catch {
      cachedBuild = 'unbuilt';
    }
  }
  return cachedBuild;
};

/** SHA-256 of a file as the models resolve it; undefined when it cannot be read. */
export const fileSha256 = (path: string): string | undefined => {
  try {
    return createHash('sha256').update(readFileSync(resolveModelPath(path))).digest('hex');
  } catch {
    return undefined;
  }
};

/** The stamp of a job reading `files`, from this installation; the first unreadable file is named. */
export const makeStamp = (files: readonly string[]): { stamp: JobStamp } | { missing: string } => {
  const out: Record<string, string> = {};
  for (const f of files) {
    const h = fileSha256(f);
    if (h === undefined) return { missing: f };
    out[f] = h;
  }
  return { stamp: { project: projectVersion(), protocol: QUEUE_PROTOCOL, build: buildHash(), files: out } };
};

/** Why this worker cannot run a job with `stamp`, or undefined when it can. */
export const stampMismatch = (stamp: JobStamp | undefined, version: string = projectVersion(), build: string = buildHash()): string | undefined => {
  if (stamp === undefined || stamp === null || typeof stamp !== 'object') return 'the job carries no version stamp';
  if (stamp.protocol !== QUEUE_PROTOCOL) return `queue protocol ${stamp.protocol} in the job, ${QUEUE_PROTOCOL} on this worker`;
  if (stamp.project !== version) return `project version ${stamp.project} in the job, ${version} on this worker`;
  if (stamp.build !== build) return `build ${String(stamp.build).slice(0, 12)}… in the job, ${build.slice(0, 12)}… on this worker (another commit or local changes: rebuild both from the same sources)`;
  if (stamp.files === null || typeof stamp.files !== 'object') return 'the job stamp names no files';
  for (const [file, sha] of Object.entries(stamp.files)) {
    const mine = fileSha256(file);
    if (mine === undefined) return `${file} is missing on this worker`;
    if (mine !== sha) return `${file} differs (sha256 ${sha.slice(0, 12)}… in the job, ${mine.slice(0, 12)}… on this worker)`;
  }
  return undefined;
};
