/**
 * The learning curve in the report: checkpoint measurements recorded in checkpoint_results come back as the
 * curve charts' series, one per opponent, by games of training on a log axis.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { chartsFor } from '../src/report/reportCharts.ts';
import { readReportData } from '../src/report/reportData.ts';
import { openMorphDatabase } from '../src/store/database.ts';
import { readCheckpointResults, recordCheckpointResult } from '../src/train/checkpointResults.ts';

const dir = mkdtempSync(join(tmpdir(), 'morph-curve-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('learning curve in the report', () => {
  it('draws Elo per opponent and the blunder share against games of training, with their intervals', () => {
    const path = join(dir, 'curve.db');
    const db = openMorphDatabase(path);
    const match = (games: number, against: string, elo: number) =>
      recordCheckpointResult(db, {
        trainedGames: games, measure: 'match', against, samples: 200, score: 0.3, elo, eloLow: elo - 50, eloHigh: elo + 50,
        checkpoint: `x/games-${games}.db`,
      });
    match(300, 'ab:1', -400);
    match(1000, 'ab:1', -200);
    match(300, 'ab:2,q', -800);
    recordCheckpointResult(db, {
      trainedGames: 300, measure: 'quality', against: 'move-scores', samples: 400, meanLoss: 12, lossLow: 10, lossHigh: 14,
      blunder: 0.15, blunderLow: 0.12, blunderHigh: 0.19, top4: 0.3, checkpoint: 'x/games-300.db',
    });
    expect(readCheckpointResults(db).map((r) => [r.trainedGames, r.measure, r.against])).toEqual([
      [300, 'match', 'ab:1'], [300, 'match', 'ab:2,q'], [300, 'quality', 'move-scores'], [1000, 'match', 'ab:1'],
    ]);
    const charts = chartsFor(readReportData(db, path));
    db.close();
    const elo = charts.find((c) => c.id === 'chart-curve-elo')!;
    expect(elo.xLog).toBe(true);
    expect(elo.series.map((s) => s.name)).toEqual(['vs ab:1', 'vs ab:2,q']);
    expect(elo.series[0].points).toEqual([{ x: 300, y: -400, low: -450, high: -350 }, { x: 1000, y: -200, low: -250, high: -150 }]);
    const blunder = charts.find((c) => c.id === 'chart-curve-blunder')!;
    expect(blunder.series[0].points).toEqual([{ x: 300, y: 0.15, low: 0.12, high: 0.19 }]);
    const quality = charts.find((c) => c.id === 'chart-curve-quality')!;
    expect(quality.series.map((s) => s.name)).toEqual(['move-scores']);
    expect(quality.series[0].points).toEqual([{ x: 300, y: 12, low: 10, high: 14 }]);
  });
});
