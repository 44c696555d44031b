/** `morph match`: N games between any two players, with the score and Elo difference of the first (--white). */
import type { Command } from 'commander';
import { appendFileSync, writeFileSync } from 'node:fs';
import { runMatch, type MatchSummary, type MatchTally } from '../../match/match.ts';
import { eloEstimate } from '../../match/elo.ts';
import { VALID_OPPONENT_FORMS } from '../../engines/opponentSpec.ts';
import { badInput, MorphError } from '../../util/errors.ts';
import { freshSeed } from '../../util/random.ts';
import { action, printLine } from '../run.ts';
import { parseIntegerOption, parseSeedOption } from '../options.ts';

interface MatchCommandOptions {
  white?: string;
  black?: string;
  games: string;
  swap?: boolean;
  json?: boolean;
  pgn?: string;
  seed?: string;
  maxPlies: string;
  maturity?: string;
  engineTimeout?: string;
  maxFailures: string;
  progress: boolean;
}

const signed = (elo: number) => (elo >= 0 ? '+' : '') + Math.round(elo);

function tallyText(t: { wins: number; draws: number; losses: number }): string {
  return `${t.wins}/${t.draws}/${t.losses}`;
}

function summaryText(s: MatchSummary, pgnFile: string | undefined): string {
  const lines = [
    `${s.first} vs ${s.second}: ${s.games} games${s.swap ? ', colours alternating' : `, ${s.first} White`}, seed ${s.seed}`,
  ];
  if (s.games > 0) {
    lines.push(
      `${s.first}: W/D/L ${tallyText(s)}, score ${s.points}/${s.games} = ${s.scoreFraction!.toFixed(3)}` +
        (s.swap ? ` (as White ${tallyText(s.asWhite)}, as Black ${tallyText(s.asBlack)})` : ''),
      `Elo difference ${signed(s.elo!.elo)}, 95% interval [${signed(s.elo!.low)}, ${signed(s.elo!.high)}]` +
        (s.elo!.clamped ? ' (a sweep: scored as if one game were drawn, so the open end is a bound)' : ''),
      `average length ${s.averagePlies!.toFixed(1)} plies; by reason: ` +
        Object.entries(s.reasons).map(([reason, count]) => `${reason} ${count}`).join(', '),
    );
  }
  if (s.failures > 0) lines.push(`${s.failures} game(s) discarded after engine failures; last: ${s.lastFailure}`);
  if (s.stopReason === 'interrupted') lines.push(`interrupted after ${s.games} of ${s.gamesRequested} games`);
  if (s.stopReason === 'engine-failures') lines.push(`stopped: too many engine failures in a row`);
  if (pgnFile) lines.push(`PGN written to ${pgnFile}`);
  lines.push(`${s.seconds.toFixed(1)} s`);
  return lines.join('\n');
}

function progressLine(tally: MatchTally, requested: number, seconds: number): string {
  const elo = eloEstimate(tally);
  const score = (tally.wins + tally.draws / 2) / tally.games;
  return (
    `morph: game ${tally.games}/${requested}: W/D/L ${tallyText(tally)}, score ${score.toFixed(3)}, ` +
    `Elo ${signed(elo.elo)} [${signed(elo.low)}, ${signed(elo.high)}], ${seconds.toFixed(0)} s\n`
  );
}

export function registerMatchCommand(program: Command): void {
  program
    .command('match')
    .description('play N games between two players; score and Elo difference from the first (--white) player')
    .option('--white <spec>', `the first player, White in game 1: ${VALID_OPPONENT_FORMS}`)
    .option('--black <spec>', 'the second player (same forms)')
    .option('--games <n>', 'games to play', '10')
    .option('--swap', 'alternate colours: the players exchange colours every game')
    .option('--json', 'print the summary as JSON (with the games as a "pgn" array unless --pgn is given)')
    .option('--pgn <file>', 'write the games to this PGN file (replaced, then written game by game)')
    .option('--seed <n>', 'match seed: each game gets a seed derived from it (default: a fresh one, reported)')
    .option('--max-plies <n>', 'adjudicate a draw after this many plies', '300')
    .option('--maturity <n>', 'Morph players: use patterns of at least this many updates (default: the database\'s)')
    .option('--engine-timeout <ms>', 'per-move timeout for external engines')
    .option('--max-failures <n>', 'stop after this many engine failures in a row', '5')
    .option('--no-progress', 'no progress lines on stderr')
    .action(
      action(async (opts: MatchCommandOptions) => {
        if (!opts.white || !opts.black) throw badInput('give both players: --white SPEC --black SPEC');
        const games = parseIntegerOption('--games', opts.games, 1);
        const seed = parseSeedOption(opts.seed) ?? freshSeed();
        const timeout = opts.engineTimeout ? parseIntegerOption('--engine-timeout', opts.engineTimeout, 1) : undefined;
        const pgnGames: string[] = [];
        if (opts.pgn) {
          try {
            writeFileSync(opts.pgn, '');
          } catch (error) {
            throw badInput(`cannot write ${opts.pgn}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
          }
        }
        // Progress every tenth of the match (every game for short ones), and at least every half minute.
        const progressEvery = Math.max(1, Math.ceil(games / 10));
        const started = performance.now();
        let lastProgress = started;
        let interrupted = false;
        const onSigint = () => {
          interrupted = true;
          process.stderr.write('morph: stopping; a game in progress is not counted (Ctrl-C again to quit at once)\n');
          process.once('SIGINT', () => process.exit(130));
        };
        process.once('SIGINT', onSigint);
        let summary: MatchSummary;
        try {
          summary = await runMatch({
            first: opts.white,
            second: opts.black,
            games,
            swap: !!opts.swap,
            seed,
            maxPlies: parseIntegerOption('--max-plies', opts.maxPlies, 1),
            maxFailures: parseIntegerOption('--max-failures', opts.maxFailures, 1),
            maturity: opts.maturity !== undefined ? parseIntegerOption('--maturity', opts.maturity, 0) : undefined,
            engineTimeouts: timeout ? { searchTimeoutMs: timeout } : undefined,
            shouldStop: () => interrupted,
            onGame: (_game, pgn, tally) => {
              if (opts.pgn) appendFileSync(opts.pgn, pgn + '\n\n');
              else pgnGames.push(pgn);
              const now = performance.now();
              const due = tally.games % progressEvery === 0 || now - lastProgress > 30_000 || tally.games === games;
              if (opts.progress && due) {
                process.stderr.write(progressLine(tally, games, (now - started) / 1000));
                lastProgress = now;
              }
            },
            onFailure: (error, round) => {
              if (opts.progress) process.stderr.write(`morph: game ${round} discarded: ${error.message}\n`);
            },
          });
        } finally {
          process.removeListener('SIGINT', onSigint);
        }
        if (opts.json) {
          printLine(JSON.stringify(opts.pgn ? { ...summary, pgnFile: opts.pgn } : { ...summary, pgn: pgnGames }));
        } else {
          printLine(summaryText(summary, opts.pgn));
        }
        if (summary.stopReason === 'engine-failures') {
          throw new MorphError(`match stopped after ${opts.maxFailures} engine failures in a row: ${summary.lastFailure}`);
        }
      }),
    );
}
