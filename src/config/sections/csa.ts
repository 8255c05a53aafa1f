import { section } from './section.js';

/** A CSA server such as floodgate; the password comes from the CSA_PASSWORD environment variable only. */
export interface CsaConfig {
  readonly enabled: boolean;
  readonly host: string;
  readonly port: number;
  readonly user: string;
  readonly gameName: string;
}

export const csaSection = section('A CSA-protocol shogi server (floodgate). The password is read from CSA_PASSWORD, never from this file.', {
  enabled: { type: 'boolean', default: false, description: 'play on the CSA server' },
  host: { type: 'string', default: 'wdoor.c.u-tokyo.ac.jp', description: 'server host name' },
  port: { type: 'integer', minimum: 1, maximum: 65535, default: 4081, description: 'server TCP port' },
  user: { type: 'string', default: 'kishi', pattern: '^[A-Za-z0-9_-]+$', description: 'login name (letters, digits, _ and -)' },
  gameName: {
    type: 'string',
    default: 'floodgate-300-10F',
    pattern: '^[A-Za-z0-9_-]+$',
    description: 'floodgate game name; the login password becomes <gameName>,<CSA_PASSWORD>',
  },
});
