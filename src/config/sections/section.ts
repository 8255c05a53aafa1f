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

/** Schema builders of the sections' fields: a typed default and the description the config docs print. */
export const strings = (description: string, def: readonly string[], values?: readonly string[]): JsonSchema => ({
  type: 'array',
  items: values ? { enum: values } : { type: 'string' },
  uniqueItems: true,
  default: def,
  description,
});
export const int = (description: string, def: number, minimum?: number, maximum?: number): JsonSchema => ({
  type: 'integer',
  default: def,
  description,
  ...(minimum !== undefined ? { minimum } : {}),
  ...(maximum !== undefined ? { maximum } : {}),
});
export const bool = (description: string, def: boolean): JsonSchema => ({ type: 'boolean', default: def, description });
export const text = (description: string, def: string): JsonSchema => ({ type: 'string', default: def, description });
