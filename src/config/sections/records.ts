import { section } from './section.js';

export interface RecordsConfig {
  readonly dir: string;
}

export const recordsSection = section('Game records (PGN, CSA) and the JSON-lines game log that learning reads.', {
  dir: { type: 'string', default: 'records', description: 'directory for records and game logs' },
});
