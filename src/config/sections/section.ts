/**
 * A config section: one top-level key of `config/kishi.yaml`, described by a JSON Schema fragment
 * whose `default`s fill in what the file leaves out (ajv `useDefaults`). Every property carries a
 * `description` that states its unit; `config/kishi.yaml` mirrors these descriptions.
 */
export interface JsonSchema {
  readonly type?: string | readonly string[];
  readonly description?: string;
  readonly default?: unknown;
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly required?: readonly string[];
  readonly additionalProperties?: boolean | JsonSchema;
  readonly items?: JsonSchema;
  readonly enum?: readonly unknown[];
  readonly minimum?: number;
  readonly maximum?: number;
  readonly exclusiveMinimum?: number;
  readonly minLength?: number;
  readonly pattern?: string;
  readonly minItems?: number;
  readonly uniqueItems?: boolean;
}

/** An object schema whose every property has a default, so `{}` validates to a complete section. */
export const section = (description: string, properties: Record<string, JsonSchema>): JsonSchema => ({
  type: 'object',
  description,
  additionalProperties: false,
  default: {},
  properties,
});
