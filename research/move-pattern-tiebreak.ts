/**
 * Move patterns as the order among moves a search cannot tell apart (issue 71, phase 1): a primary ranker's values
 * (a built-in such as ab:2,q, or Morph over a database), its ties broken by the move patterns' scores, measured as
 * `morph agree` measures (top-1, top-4, win-chance loss) on labelled positions, beside the primary alone.
 *
 *   node bin/run-ts.js research/move-pattern-tiebreak.ts POSITIONS MOVE_PATTERNS PRIMARY...
 *     PRIMARY: a ranker spec (ab:2,q, greedy, ...) or db:FILE (Morph over FILE, with its own policy if built)
 * Prints one JSON line per ranker (the agree report).
 */
import { readFileSync } from 'node:fs';
import { parseLabelledPositions } from '../src/agree/positions.ts';
import { measureAgreement } from '../src/agree/metrics.ts';
import { createRanker, morphRanker, movePatternRanker, type MoveRanker } from '../src/agree/rankers.ts';

const [positionsFile, patternsFile, ...primaries] = process.argv.slice(2);
if (!positionsFile || !patternsFile || primaries.length === 0) {
  console.error('usage: move-pattern-tiebreak.ts POSITIONS MOVE_PATTERNS PRIMARY...');
  process.exit(2);
}
const lines = readFileSync(positionsFile, 'utf8').split('\n').map((text, i) => ({ text, number: i + 1 })).filter((l) => l.text.trim() !== '');
const positions = parseLabelledPositions(lines).positions;

/** `primary`'s order, its equal values ordered by `secondary`: each move's value is its place in that order (equal pairs equal). */
function tieBroken(primary: MoveRanker, secondary: MoveRanker): MoveRanker {
  return {
    name: `${primary.name}, ties by ${secondary.name}`,
    score: (fen) => {
      const second = new Map(secondary.score(fen).map((m) => [m.move, m.value]));
      const rows = primary.score(fen).map((m) => ({ move: m.move, a: m.value, b: second.get(m.move) ?? 0 }));
      const distinct = [...new Set(rows.map((r) => `${r.a}\u0000${r.b}`))]
        .map((key) => key.split('\u0000').map(Number))
        .sort((x, y) => x[0] - y[0] || x[1] - y[1]);
      const place = new Map(distinct.map(([a, b], k) => [`${a}\u0000${b}`, k]));
      return rows.map((r) => ({ move: r.move, value: place.get(`${r.a}\u0000${r.b}`)! }));
    },
    close: () => {},
  };
}

const patterns = movePatternRanker(patternsFile);
for (const spec of primaries) {
  const primary = spec.startsWith('db:') ? morphRanker(spec.slice(3)) : createRanker(spec);
  for (const ranker of [primary, tieBroken(primary, patterns)]) {
    console.log(JSON.stringify(measureAgreement(positions, ranker)));
  }
  primary.close();
}
patterns.close();
