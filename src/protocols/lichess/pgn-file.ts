/**
 * Where a game's PGN goes (lichess-bot `pgn_directory`, `pgn_file_grouping`): `game` writes `<id>.pgn`,
 * `opponent` appends to `<me> games vs. <opponent>.pgn`, `all` appends to `<me> games.pgn`. With
 * `mergeExport` the tags of lichess's own export (`GET /game/export/{id}`) are added to ours
 * (pgn-record.ts `mergeExportTags`). A `game` file is written at once and rewritten (through a temporary
 * file and a rename) once the export is in; an appended record is written once, after the export or its
 * failure. Failures are logged, never thrown.
 */
import { appendFileSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type winston from 'winston';
import type { LichessRecordsConfig } from '../../config/sections/lichess.js';
import type { LichessClient } from './client.js';
import { mergeExportTags } from './pgn-record.js';

const safe = (name: string): string => name.replace(/[^\w.-]+/g, '_');

export function pgnFileName(grouping: LichessRecordsConfig['pgnFileGrouping'], gameId: string, me: string, opponent: string): string {
  switch (grouping) {
    case 'game':
      return `${safe(gameId)}.pgn`;
    case 'opponent':
      return `${safe(me)} games vs. ${safe(opponent)}.pgn`;
    case 'all':
      return `${safe(me)} games.pgn`;
  }
}

export interface SavePgnOptions {
  readonly client: LichessClient;
  readonly dir: string;
  readonly gameId: string;
  readonly me: string;
  readonly opponent: string;
  readonly records: LichessRecordsConfig;
  readonly pgn: string;
  readonly log: winston.Logger;
}

/** Writes the PGN per the grouping; resolves when the final text is on disk. */
export async function savePgn(o: SavePgnOptions): Promise<void> {
  const path = join(o.dir, pgnFileName(o.records.pgnFileGrouping, o.gameId, o.me, o.opponent));
  const grouped = o.records.pgnFileGrouping !== 'game';
  try {
    mkdirSync(o.dir, { recursive: true });
    if (!grouped) writeFileSync(path, o.pgn);
  } catch (e) {
    o.log.warn(`game ${o.gameId}: PGN write failed: ${(e as Error).message}`);
    return;
  }
  let text = o.pgn;
  if (o.records.mergeExport) {
    const r = await o.client.request<string>('exportGame', { args: [o.gameId] });
    if (r.isOk && typeof r.value.data === 'string') text = mergeExportTags(o.pgn, r.value.data);
    else if (r.isErr) o.log.debug(`game ${o.gameId}: no lichess export to merge: ${r.error.message}`);
  }
  try {
    if (grouped) appendFileSync(path, `${text.trimEnd()}\n\n`);
    else if (text !== o.pgn) {
      writeFileSync(`${path}.tmp`, text);
      renameSync(`${path}.tmp`, path);
    }
  } catch (e) {
    o.log.warn(`game ${o.gameId}: PGN write failed: ${(e as Error).message}`);
  }
}
