/**
 * Messages between a queue worker (worker.ts) and its datagen threads (datagen-thread.ts): one
 * `play` per chunk, answered by `chunk`, `refuse` (this machine resolves other settings from the
 * job's choices: another version of the defaults) or `error`.
 */
import type { DatagenJob } from './jobs.js';

export interface DatagenThreadRequest {
  readonly type: 'play';
  readonly job: DatagenJob;
}

export type DatagenThreadReply =
  | { readonly type: 'chunk'; readonly chunk: number; readonly games: number; readonly nodes: number; readonly count: number; readonly records: Uint8Array; readonly ms: number }
  | { readonly type: 'refuse'; readonly message: string }
  | { readonly type: 'error'; readonly message: string };
