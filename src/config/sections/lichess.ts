import { section } from './section.js';

/** The lichess Bot API client; the token comes from the LICHESS_TOKEN environment variable only. */
export interface LichessConfig {
  readonly enabled: boolean;
  readonly url: string;
  readonly concurrency: number;
}

export const lichessSection = section('Lichess through the Bot API. The token is read from LICHESS_TOKEN, never from this file.', {
  enabled: { type: 'boolean', default: false, description: 'play on lichess' },
  url: { type: 'string', default: 'https://lichess.org', description: 'server base URL' },
  concurrency: { type: 'integer', minimum: 1, maximum: 64, default: 1, description: 'games played at once' },
});
