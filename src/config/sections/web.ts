import { section } from './section.js';

/** When the local web server starts: `auto` with no account enabled (`kishi run` with nothing configured), or always, or never. */
export const WEB_MODES = ['auto', 'always', 'never'] as const;
export type WebMode = (typeof WEB_MODES)[number];

export interface WebConfig {
  readonly enabled: WebMode;
  readonly host: string;
  readonly port: number;
  readonly maxGames: number;
  readonly maxTakebacks: number;
  readonly watchAlphazeroDirs: readonly string[];
}

export const webSection = section('The local web page: play Kishi in a browser (src/web/).', {
  enabled: { enum: WEB_MODES, default: 'auto', description: 'auto (only when no account is enabled) | always | never' },
  host: {
    type: 'string',
    minLength: 1,
    default: '127.0.0.1',
    description: 'address to listen on; keep 127.0.0.1 (this machine only) unless you mean to serve other machines',
  },
  port: { type: 'integer', minimum: 0, maximum: 65535, default: 8765, description: 'TCP port (0: any free port)' },
  maxGames: { type: 'integer', minimum: 1, maximum: 64, default: 4, description: 'games played at once (each holds a search thread)' },
  maxTakebacks: { type: 'integer', minimum: 0, maximum: 1000, default: 5, description: 'takebacks granted per game' },
  watchAlphazeroDirs: {
    type: 'array',
    items: { type: 'string', minLength: 1 },
    default: [],
    description: 'state directories of `kishi train alphazero` whose learning curve the watch view (/watch) draws',
  },
});
