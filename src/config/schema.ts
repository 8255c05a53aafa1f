/**
 * The one typed config schema: every section, its defaults and units. `config/kishi.yaml` documents
 * the same keys; `tests/config/schema.test.ts` checks that the two agree.
 */
import type { CsaConfig } from './sections/csa.js';
import { csaSection } from './sections/csa.js';
import type { EngineConfig } from './sections/engine.js';
import { engineSection } from './sections/engine.js';
import type { LearningConfig } from './sections/learning.js';
import { learningSection } from './sections/learning.js';
import type { LichessConfig } from './sections/lichess.js';
import { lichessSection } from './sections/lichess.js';
import type { LishogiConfig } from './sections/lishogi.js';
import { lishogiSection } from './sections/lishogi.js';
import type { LogConfig } from './sections/log.js';
import { logSection } from './sections/log.js';
import type { QueueConfig } from './sections/queue.js';
import { queueSection } from './sections/queue.js';
import type { RecordsConfig } from './sections/records.js';
import { recordsSection } from './sections/records.js';
import type { JsonSchema } from './sections/section.js';
import type { WebConfig } from './sections/web.js';
import { webSection } from './sections/web.js';

export interface KishiConfig {
  readonly engine: EngineConfig;
  readonly lichess: LichessConfig;
  readonly lishogi: LishogiConfig;
  readonly csa: CsaConfig;
  readonly log: LogConfig;
  readonly records: RecordsConfig;
  readonly learning: LearningConfig;
  readonly web: WebConfig;
  readonly queue: QueueConfig;
}

export const configSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    engine: engineSection,
    lichess: lichessSection,
    lishogi: lishogiSection,
    csa: csaSection,
    log: logSection,
    records: recordsSection,
    learning: learningSection,
    web: webSection,
    queue: queueSection,
  },
};

/** Secrets and the environment variables they come from; never read from the config file. */
export const SECRET_ENV = {
  lichessToken: 'LICHESS_TOKEN',
  lishogiToken: 'LISHOGI_TOKEN',
  csaPassword: 'CSA_PASSWORD',
} as const;
