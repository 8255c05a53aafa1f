/** Validates what the local server sends against the bundled lichess JSON Schemas (formats not checked). */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv';
import type { SentMessage } from '../../../../src/protocols/lichess/fake/server.js';

export const BUNDLED_DIR = fileURLToPath(new URL('../../../fixtures/lichess/schemas', import.meta.url));

export class SchemaChecker {
  private readonly validators = new Map<string, ValidateFunction>();
  readonly failures: string[] = [];
  /** Messages checked per schema. */
  readonly checked = new Map<string, number>();
  unchecked = 0;

  constructor(dir = BUNDLED_DIR) {
    const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
    for (const f of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
      this.validators.set(f.replace(/\.json$/, ''), ajv.compile(JSON.parse(readFileSync(join(dir, f), 'utf8')) as object));
    }
  }

  /** The `onSend` hook of the server. */
  readonly check = (sent: SentMessage): void => {
    if (sent.schema === undefined) {
      this.unchecked++;
      return;
    }
    const validate = this.validators.get(sent.schema);
    if (validate === undefined) {
      this.failures.push(`${sent.where}: no schema ${sent.schema}`);
      return;
    }
    this.checked.set(sent.schema, (this.checked.get(sent.schema) ?? 0) + 1);
    if (!validate(sent.message)) {
      this.failures.push(`${sent.where} ${sent.schema}: ${JSON.stringify(validate.errors?.slice(0, 3))} in ${JSON.stringify(sent.message).slice(0, 300)}`);
    }
  };

  /** Number of messages validated. */
  total(): number {
    let n = 0;
    for (const v of this.checked.values()) n += v;
    return n;
  }
}
