/**
 * Records one checkpoint measurement in the trained database's `checkpoint_results` (src/train/checkpointResults.ts),
 * from the JSON that `morph match --json` or `morph agree --json` printed (read from stdin):
 *
 *   morph match --white morph:CKPT --black ab:1 --games 200 --json | node bin/run-ts.js training/record-checkpoint.ts DB CKPT
 *   morph agree --db CKPT --positions FILE --json | node bin/run-ts.js training/record-checkpoint.ts DB CKPT
 */
import { readFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { recordCheckpointResult } from '../src/train/checkpointResults.ts';

const [dbPath, checkpoint] = process.argv.slice(2);
if (!dbPath || !checkpoint) throw new Error('usage: record-checkpoint.ts DB CHECKPOINT < match-or-agree.json');
const games = /games-(\d+)\.db$/.exec(checkpoint);
if (!games) throw new Error(`not a checkpoint file name (games-NNNNNN.db): ${checkpoint}`);
const db = new Database(dbPath, { timeout: 60_000 });
for (const line of readFileSync(0, 'utf8').split('\n').filter((l) => l.trim().startsWith('{'))) {
  const r = JSON.parse(line);
  if (r.pentanomial !== undefined) {
    // A match: the pair-based interval (an opening's two games are one sample).
    recordCheckpointResult(db, {
      trainedGames: Number(games[1]), measure: 'match', against: r.second, samples: r.games, score: r.scoreFraction,
      elo: r.pairs?.elo ?? r.elo?.elo, eloLow: r.pairs?.low ?? r.elo?.low, eloHigh: r.pairs?.high ?? r.elo?.high, checkpoint,
    });
  } else if (r.quality !== undefined) {
    const q = r.quality;
    recordCheckpointResult(db, {
      trainedGames: Number(games[1]), measure: 'quality', against: 'move-scores', samples: q.positions,
      meanLoss: q.meanLoss, lossLow: q.intervals.meanLoss[0], lossHigh: q.intervals.meanLoss[1], blunder: q.blunder,
      blunderLow: q.intervals.blunder[0], blunderHigh: q.intervals.blunder[1], top4: r.top4, checkpoint,
    });
  }
}
db.close();
