/**
 * The servers Kishi plays on, in one list: the help texts are written from it, and
 * tests/repository/servers-listed.test.ts checks the README, `package.json` and `config/kishi.yaml`
 * against it, so that no text forgets one (lishogi was once left out of five).
 */
import type { GameKind } from '../core/game.js';
import { SECRET_ENV } from '../config/schema.js';

/** One server Kishi plays on. */
export interface ServerEntry {
  /** Its config section (and `SERVER_FACTORIES` key of `kishi run`). */
  readonly section: 'lichess' | 'lishogi' | 'csa';
  /** Its name as users know it. */
  readonly name: string;
  /** The game played there. */
  readonly game: GameKind;
  /** How Kishi talks to it. */
  readonly protocol: string;
  /** Its front-end, `src/protocols/<folder>/`. */
  readonly folder: string;
  /** The environment variable of its secret (never read from the config file). */
  readonly secretEnv: string;
}

/** Every server, in the order the docs present them. */
export const SERVERS: readonly ServerEntry[] = [
  { section: 'lichess', name: 'lichess', game: 'chess', protocol: 'Bot API', folder: 'lichess', secretEnv: SECRET_ENV.lichessToken },
  { section: 'lishogi', name: 'lishogi', game: 'shogi', protocol: 'Bot API', folder: 'lishogi', secretEnv: SECRET_ENV.lishogiToken },
  { section: 'csa', name: 'floodgate', game: 'shogi', protocol: 'CSA', folder: 'csa', secretEnv: SECRET_ENV.csaPassword },
];

/** "lichess, lishogi, floodgate": the servers' names for a help line. */
export const serverNames = (): string => SERVERS.map((s) => s.name).join(', ');

/** "chess on lichess, shogi on lishogi and floodgate": where each game is played. */
export const gamesOnServers = (): string => {
  const games = [...new Set(SERVERS.map((s) => s.game))];
  return games
    .map((g) => {
      const names = SERVERS.filter((s) => s.game === g).map((s) => s.name);
      return `${g} on ${names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : names[0]}`;
    })
    .join(', ');
};
