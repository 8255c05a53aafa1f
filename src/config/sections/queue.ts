import { section, strings } from './section.js';

export interface QueueConfig {
  readonly url: string;
  readonly name: string;
  readonly concurrency: number;
  readonly lockDurationSec: number;
  /** Engines match jobs may name besides Kishi (engine specs with name=<id>). */
  readonly engines: readonly string[];
}

export const queueSection = section('Job queue on Redis (BullMQ) for `kishi worker` and the producers\' --queue; the password comes from KISHI_QUEUE_PASSWORD.', {
  url: { type: 'string', default: '', pattern: '^(|rediss?://[^:@/]*@?[^@]*)$', description: 'redis://host:port or rediss://host:port (TLS); empty: give --queue; no password here' },
  name: { type: 'string', default: 'kishi', minLength: 1, pattern: '^[A-Za-z0-9_.-]+$', description: 'BullMQ queue name (producers and workers must agree)' },
  concurrency: { type: 'integer', default: 0, minimum: 0, description: 'jobs a worker runs at once (0: one per CPU core)' },
  lockDurationSec: { type: 'integer', default: 30, minimum: 5, description: "seconds after which a dead worker's job is handed to another worker" },
  engines: strings('engines a worker runs for match jobs besides Kishi, as engine specs with name=<id> (jobs name them by id, never by command line)', []),
});
