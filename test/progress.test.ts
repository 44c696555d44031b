import cliProgress from 'cli-progress';
import { describe, expect, it } from 'vitest';
import { BAR_FORMAT, BAR_SIZE, formatDuration, progressFields, progressLine, RECENT_GAMES, type ProgressFields } from '../src/train/progress.ts';

/** The bar as cli-progress draws it (its own formatter), cut where a 120-column terminal cuts it. */
function barAt120(fields: ProgressFields, progress: number): string {
  const options = {
    format: BAR_FORMAT, barsize: BAR_SIZE, barCompleteString: '\u2588'.repeat(BAR_SIZE), barIncompleteString: '\u2591'.repeat(BAR_SIZE),
    barGlue: '', autopadding: false, autopaddingChar: '   ', formatTime: undefined,
  };
  const line = cliProgress.Format.Formatter(options, { progress, eta: 0, startTime: Date.now(), stopTime: null, total: 1, value: progress, maxWidth: 120 }, fields);
  return line.slice(0, 120);
}

describe('training progress line', () => {
  const counts = { games: 340, wins: 120, draws: 100, losses: 120, patterns: 123_456, lastGame: 12_340 };
  const recent = [...Array(RECENT_GAMES - 5).fill(1), ...Array(5).fill(0)];

  it('keeps done, ETA, games/hour, elapsed, opponent and the recent score within 120 columns', () => {
    const fields = progressFields(counts, recent, -1.25, 3600 * 2 + 61, { games: 1000, opponent: 'noisy:0.3:stockfish:skill=20,depth=1' });
    const shown = barAt120(fields, 0.34);
    expect(shown).toContain('340/1000');
    // 340 games in 2:01:01 is 168.6 an hour; 660 to go take 3:54:55.
    expect(shown).toContain('ETA 3:54:55');
    expect(shown).toContain('169 games/h');
    expect(shown).toContain('2:01:01');
    expect(shown).toContain('vs noisy:0.3:stockfish:skill=2…');
    expect(shown).toContain(`score 0.75 (last ${RECENT_GAMES})`);
    expect(progressLine(counts.lastGame, fields)).toMatch(/W\/D\/L 120\/100\/120 score 0\.500 \| material -1\.25 \| patterns 123456$/);
  });

  it('shows a run limited to hours in minutes and seconds, not rounded hours', () => {
    const fields = progressFields({ ...counts, games: 3 }, [1, 0.5, 0], 0, 9, { hours: 0.005, opponent: 'random' });
    expect(fields.elapsed).toBe('0:09/0:18');
    expect(fields.remaining).toBe('0:09');
    expect(fields.done).toBe('3 games');
    expect(fields.recent).toBe('0.50 (last 3)');
    expect(progressFields({ ...counts, games: 0 }, [], 0, 2, { games: 10 }).remaining).toBe('-');
    expect(formatDuration(0)).toBe('0:00');
    expect(formatDuration(3599.6)).toBe('1:00:00');
  });
});
