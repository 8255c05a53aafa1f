/**
 * UCI/USI `info` lines (the two protocols share the syntax): depth, seldepth, score cp|mate with
 * optional bounds, nodes, nps, time, hashfull, multipv, pv. USI's `score mate +`/`-` (mate found,
 * length unknown) reads as mate 1/-1; `-0` stays -0 (mated now).
 */

/** What one `info` line carries; absent fields were not in the line. */
export interface InfoFields {
  depth?: number;
  seldepth?: number;
  score?: { readonly cp: number } | { readonly mate: number };
  /** The score is only a bound (`lowerbound`/`upperbound`). */
  bound?: 'lower' | 'upper';
  nodes?: number;
  nps?: number;
  timeMs?: number;
  hashfull?: number;
  multipv?: number;
  pv?: string[];
  string?: string;
}

export function parseInfoLine(line: string): InfoFields {
  const t = line.trim().split(/\s+/);
  const out: InfoFields = {};
  for (let i = 1; i < t.length; i++) {
    const num = (): number => Number(t[++i]);
    switch (t[i]) {
      case 'depth':
        out.depth = num();
        break;
      case 'seldepth':
        out.seldepth = num();
        break;
      case 'time':
        out.timeMs = num();
        break;
      case 'nodes':
        out.nodes = num();
        break;
      case 'nps':
        out.nps = num();
        break;
      case 'hashfull':
        out.hashfull = num();
        break;
      case 'multipv':
        out.multipv = num();
        break;
      case 'currmove':
      case 'currmovenumber':
      case 'tbhits':
      case 'cpuload':
        i++;
        break;
      case 'wdl':
        i += 3;
        break;
      case 'score': {
        const kind = t[++i];
        const v = t[++i] ?? '';
        if (kind === 'cp') out.score = { cp: Number(v) };
        else if (kind === 'mate') out.score = { mate: v === '+' ? 1 : v === '-' ? -1 : Number(v) };
        if (t[i + 1] === 'lowerbound' || t[i + 1] === 'upperbound') out.bound = t[++i] === 'lowerbound' ? 'lower' : 'upper';
        break;
      }
      case 'pv':
        out.pv = t.slice(i + 1);
        i = t.length;
        break;
      case 'string':
        out.string = t.slice(i + 1).join(' ');
        i = t.length;
        break;
      default:
        break;
    }
  }
  if (out.score !== undefined && 'cp' in out.score && !Number.isFinite(out.score.cp)) delete out.score;
  if (out.score !== undefined && 'mate' in out.score && Number.isNaN(out.score.mate)) delete out.score;
  return out;
}
