/**
 * Seeded randomness. Every random choice in Morph goes through one of these so that a run can be repeated
 * from its recorded seed. mulberry32: small, fast and good enough for tie-breaks and sampling.
 */
export class Random {
  private state: number;

  constructor(readonly seed: number) {
    this.state = seed >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Uniform integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)];
  }

  /** Shuffles `items` in place (Fisher-Yates, from the last item down) and returns them. */
  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      [items[i], items[j]] = [items[j], items[i]];
    }
    return items;
  }

  /** The generator's position, so that it can be saved and resumed. */
  getState(): number {
    return this.state;
  }

  setState(state: number): void {
    this.state = state >>> 0;
  }
}

/** A fresh seed when the user gave none (recorded by the caller so the run can be repeated). */
export function freshSeed(): number {
  return (Date.now() ^ (process.pid << 16)) >>> 0;
}
