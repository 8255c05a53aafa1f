/**
 * The feature registry: every feature of a linear evaluation has a stable index and a name.
 *
 * Features come in named groups (`pst.mg.knight`, 64 entries `pst.mg.knight.e4` ...); a feature set
 * is identified by its `version` string, and a weights file is only accepted for the exact set it
 * was trained on (see weights.ts). Changing a group's size or order means a new version.
 */
import type { GameKind } from '../../core/game.js';
import type { FeatureSink } from './sparse.js';

/** A game's feature set: names, version and the extractor that fills phi(s). */
export interface FeatureSet<B> {
  readonly game: GameKind;
  /** Identifies the feature layout; weights files must name it. */
  readonly version: string;
  /** Number of features (dimension of theta). */
  readonly size: number;
  /** Feature names by index (unique). */
  readonly names: readonly string[];
  /** Index of each name. */
  readonly indexOf: ReadonlyMap<string, number>;
  /**
   * Appends phi(s) of `board` to `out` (which is not cleared), from the first player's view:
   * a positive weight favours chess white / shogi sente.
   */
  extract(board: B, out: FeatureSink): void;
}

/** Collects named feature groups into consecutive index ranges. */
export class FeatureRegistry {
  private readonly names: string[] = [];

  /** Adds `count` features named `${prefix}.${suffix(i)}`; returns the index of the first one. */
  group(prefix: string, count: number, suffix: (i: number) => string = (i) => String(i)): number {
    const base = this.names.length;
    for (let i = 0; i < count; i++) this.names.push(`${prefix}.${suffix(i)}`);
    return base;
  }

  /** Adds one feature named `name`; returns its index. */
  single(name: string): number {
    this.names.push(name);
    return this.names.length - 1;
  }

  get size(): number {
    return this.names.length;
  }

  /** Freezes the registry into a feature set. Throws on duplicate names (a bug in the layout). */
  build<B>(game: GameKind, version: string, extract: (board: B, out: FeatureSink) => void): FeatureSet<B> {
    const names = [...this.names];
    const indexOf = new Map<string, number>();
    names.forEach((n, i) => {
      if (indexOf.has(n)) throw new Error(`duplicate feature name ${n}`);
      indexOf.set(n, i);
    });
    return { game, version, size: names.length, names, indexOf, extract };
  }
}
