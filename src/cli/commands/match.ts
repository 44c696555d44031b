/**
 * `morph match`: games between two players, the way engine testers play them: every opening of a suite twice
 * with colours reversed, results per game and per pair (pentanomial), optionally until an SPRT decides.
 */
import type { Command } from 'commander';
import { appendFileSync, writeFileSync } from 'node:fs';
import { checkAppendable } from '../../util/outputFile.ts';
import { relative } from 'node:path';
import { runMatch, type MatchSummary, type MatchTally } from '../../match/match.ts';
import { DEFAULT_OPENINGS, readOpenings } from '../../match/openings.ts';
import { outcomeStatistics, pentanomial } from '../../match/outcomes.ts';
import type { SprtSettings } from '../../match/sprt.ts';
import { VALID_OPPONENT_FORMS } from '../../engines/opponentSpec.ts';
import { checkDatabaseFileKind } from '../../store/databaseKind.ts';
import { badInput, MorphError } from '../../util/errors.ts';
import { freshSeed } from '../../util/random.ts';
import { action, printLine } from '../run.ts';
import { CONTEMPT_HELP, MATERIAL_PRIOR_HELP, parseContemptOption, parseIntegerOption, parseMaterialPriorOption, parseNumberOption, parseSearchOption, parseSeedOption, parsePolicyWeightOption, POLICY_WEIGHT_HELP, MODEL_MODE_HELP, parseModelModeOption, SEARCH_HELP } from '../options.ts';
import { signed } from '../../util/format.ts';

interface MatchCommandOptions {
  white?: string;
  black?: string;
  games?: string;
  openings?: string;
  concurrency: string;
  sprt?: string;
  json?: boolean;
  pgn?: string;
  seed?: string;
  maxPlies: string;
  maturity?: string;
  materialPrior?: string;
  movePatterns?: string;
  search?: string;
  engineTimeout?: string;
  maxFailures: string;
  progress: boolean;
  whiteModel?: string;
  blackModel?: string;
  modelMode?: string;
  whitePolicy?: string;
  blackPolicy?: string;
  whiteMovePolicy?: string;
  policy: boolean;
  policyWeight?: string;
  /** False from --no-graph-patterns. */
  graphPatterns?: boolean;
  contempt?: string;
}

/** Games an SPRT may play at most when --games is not given. */
const SPRT_MAX_GAMES = 20_000;

const percent = (x: number) => `${(100 * x).toFixed(2)}%`;

function tallyText(t: { wins: number; draws: number; losses: number }): string {
  return `${t.wins}/${t.draws}/${t.losses}`;
}

/** `--sprt elo0=0,elo1=5[,alpha=0.05,beta=0.05,model=normalized|logistic]`. */
export function parseSprtOption(text: string): SprtSettings {
  const settings: Partial<SprtSettings> = { alpha: 0.05, beta: 0.05, model: 'normalized' };
  for (const part of text.split(',')) {
    const [key, value, extra] = part.split('=').map((s) => s.trim());
    if (value === undefined || extra !== undefined) throw badInput(`--sprt: expected key=value, got "${part}"`);
    if (key === 'elo0' || key === 'elo1') settings[key] = parseNumberOption(`--sprt ${key}`, value);
    else if (key === 'alpha' || key === 'beta') settings[key] = parseNumberOption(`--sprt ${key}`, value, 1e-6, 0.5);
    else if (key === 'model') {
      if (value !== 'normalized' && value !== 'logistic') throw badInput(`--sprt model is normalized or logistic, got "${value}"`);
      settings.model = value;
    } else throw badInput(`--sprt: unknown setting "${key}" (elo0, elo1, alpha, beta, model)`);
  }
  if (settings.elo0 === undefined || settings.elo1 === undefined) throw badInput('--sprt needs elo0=X,elo1=Y');
  if (!(settings.elo1 > settings.elo0)) throw badInput('--sprt needs elo1 greater than elo0');
  return settings as SprtSettings;
}

function sprtText(s: NonNullable<MatchTally['sprt']>): string {
  const verdict = s.decision === 'H1' ? 'H1 accepted' : s.decision === 'H0' ? 'H0 accepted' : 'no decision yet';
  return (
    `SPRT (${s.model} Elo, elo0 ${s.elo0}, elo1 ${s.elo1}, alpha ${s.alpha}, beta ${s.beta}): ` +
    `LLR ${s.llr.toFixed(2)} (${s.lower.toFixed(2)}, ${s.upper.toFixed(2)}): ${verdict}`
  );
}

/** The warning for games that repeat, or null when every game is distinct. */
export function repeatWarning(s: Pick<MatchSummary, 'games' | 'distinctGames'>): string | null {
  if (s.distinctGames >= s.games) return null;
  return (
    `warning: only ${s.distinctGames} distinct games among ${s.games}: games repeat (deterministic players ` +
    `and too few openings?), so the intervals overstate what was measured`
  );
}

function summaryText(s: MatchSummary, pgnFile: string | undefined): string {
  const lines = [
    `${s.first} vs ${s.second}: ${s.games} games, ${s.openings.used} openings from ${s.openings.source} ` +
      `(${s.openings.count}), each played twice with colours reversed; seed ${s.seed}`,
  ];
  if (s.games > 0) {
    const e = s.elo!;
    lines.push(
      `${s.first}: W/D/L ${tallyText(s)}, score ${s.points}/${s.games} = ${s.scoreFraction!.toFixed(3)} ` +
        `(as White ${tallyText(s.asWhite)}, as Black ${tallyText(s.asBlack)}); draw ratio ${percent(s.drawRatio!)}; LOS ${percent(s.los)}`,
    );
    if (s.pairs) {
      const p = s.pairs;
      lines.push(
        `Elo ${signed(p.elo, 1)}, 95% interval [${signed(p.low, 1)}, ${signed(p.high, 1)}] from ${p.samples} game pairs; ` +
          `normalized Elo ${signed(p.normalizedElo, 1)} [${signed(p.normalizedLow, 1)}, ${signed(p.normalizedHigh, 1)}]; ` +
          `LOS (pairs) ${percent(p.los)}`,
      );
    }
    lines.push(
      `Ptnml(0-2): [${s.pentanomial.join(', ')}] (pairs scoring 0, 1/2, 1, 3/2, 2 points)`,
      `per game (as if independent): Elo ${signed(e.elo)}, 95% interval [${signed(e.low)}, ${signed(e.high)}]` +
        (e.clamped ? ' (a sweep: scored as if one game were drawn, so the open end is a bound)' : ''),
      `average length ${s.averagePlies!.toFixed(1)} plies; by reason: ` +
        Object.entries(s.reasons).map(([reason, count]) => `${reason} ${count}`).join(', '),
    );
  }
  if (s.sprt) lines.push(sprtText(s.sprt));
  const warning = repeatWarning(s);
  if (warning) lines.push(warning);
  if (s.failures > 0) lines.push(`${s.failures} game(s) discarded after engine failures; last: ${s.lastFailure}`);
  if (s.stopReason === 'interrupted') lines.push(`interrupted after ${s.games} of ${s.gamesRequested} games`);
  if (s.stopReason === 'engine-failures') lines.push(`stopped: too many engine failures in a row`);
  if (pgnFile) lines.push(`PGN written to ${pgnFile}`);
  lines.push(`${s.seconds.toFixed(1)} s, ${s.concurrency} at a time`);
  return lines.join('\n');
}

function progressLine(tally: MatchTally, requested: number, seconds: number): string {
  const pairs = outcomeStatistics(pentanomial(tally.pentanomial));
  const score = (tally.wins + tally.draws / 2) / tally.games;
  return (
    `morph: game ${tally.games}/${requested}: W/D/L ${tallyText(tally)}, score ${score.toFixed(3)}` +
    (pairs ? `, Elo ${signed(pairs.elo)} [${signed(pairs.low)}, ${signed(pairs.high)}]` : '') +
    `, Ptnml [${tally.pentanomial.join(', ')}]` +
    (tally.sprt ? `, LLR ${tally.sprt.llr.toFixed(2)} (${tally.sprt.lower.toFixed(2)}, ${tally.sprt.upper.toFixed(2)})` : '') +
    `, ${seconds.toFixed(0)} s\n`
  );
}

export function registerMatchCommand(program: Command): void {
  program
    .command('match')
    .description(
      'games between two players, every opening twice with colours reversed: W/D/L, Elo with 95% interval, LOS, ' +
        'pentanomial statistics, optionally an SPRT; scored for the first player (--white)',
    )
    .option('--white <spec>', `the first player, White in the first game of each pair: ${VALID_OPPONENT_FORMS}`)
    .option('--black <spec>', 'the second player (same forms)')
    .option('--games <n>', `games to play (at most, with --sprt; default 10, or ${SPRT_MAX_GAMES} with --sprt)`)
    .option('--openings <file>', 'opening suite, EPD or PGN (default: the balanced suite in openings/)')
    .option('--concurrency <n>', 'games played at once (helps with external engines)', '1')
    .option('--sprt <settings>', 'stop when the SPRT decides: elo0=X,elo1=Y[,alpha=0.05,beta=0.05,model=normalized|logistic]')
    .option('--seed <n>', 'match seed: the opening order and each game\'s seeds derive from it (default: fresh, reported)')
    .option('--max-plies <n>', 'adjudicate a draw after this many plies (opening included)', '300')
    .option('--json', 'print the summary as JSON (with the games as a "pgn" array unless --pgn is given)')
    .option('--pgn <file>', 'write the games to this PGN file (replaced, then written game by game)')
    .option('--no-progress', 'no progress lines on stderr')
    .optionsGroup('Search and evaluation of Morph players:')
    .option('--search <search>', `Morph players: ${SEARCH_HELP} (default: the database's)`)
    .option('--move-patterns <file>', 'Morph players: the move-pattern database (morph model --move-patterns) whose highest-ranked quiet moves a search with patterns=K follows')
    .option('--maturity <n>', 'Morph players: use patterns of at least this many updates (default: the database\'s)')
    .option('--material-prior <k>', `Morph players: ${MATERIAL_PRIOR_HELP}`)
    .option('--contempt <c>', CONTEMPT_HELP)
    .option('--no-graph-patterns', 'the Morph player --white only: without what its graph patterns add (their terms and the policy\'s term), to see what they are worth against the same database with them')
    .optionsGroup('Move policies of Morph players:')
    .option('--white-policy <file>', 'a model of a strong player (morph model), the Morph player --white\'s move policy')
    .option('--black-policy <file>', 'the same for the Morph player --black')
    .option('--white-move-policy <file>', "move patterns (morph model --move-patterns, e.g. from a strong player's games) as a second move policy of the Morph player --white, joined to its policy")
    .option('--no-policy', "Morph players: no move policy (by default each plays with its database's own, DB.policy.db, if built)")
    .option('--policy-weight <x>', POLICY_WEIGHT_HELP)
    .optionsGroup('Opponent models of Morph players:')
    .option('--white-model <file>', "an opponent model of --black, for the Morph player --white: it looks along the predicted replies")
    .option('--black-model <file>', 'an opponent model of --white, for the Morph player --black')
    .option('--model-mode <mode>', `Morph players ${MODEL_MODE_HELP}`)
    .optionsGroup('External engines:')
    .option('--engine-timeout <ms>', 'per-move timeout for external engines')
    .option('--max-failures <n>', 'stop after this many engine failures in a row', '5')
    .action(
      action(async (opts: MatchCommandOptions) => {
        if (!opts.white || !opts.black) throw badInput('give both players: --white SPEC --black SPEC');
        for (const model of [opts.whiteModel, opts.blackModel, opts.whitePolicy, opts.blackPolicy]) {
          if (model !== undefined) checkDatabaseFileKind(model, 'opponent-model');
        }
        const sprt = opts.sprt !== undefined ? parseSprtOption(opts.sprt) : undefined;
        const games = opts.games !== undefined ? parseIntegerOption('--games', opts.games, 1) : sprt ? SPRT_MAX_GAMES : 10;
        const concurrency = parseIntegerOption('--concurrency', opts.concurrency, 1, 64);
        const seed = parseSeedOption(opts.seed) ?? freshSeed();
        const timeout = opts.engineTimeout ? parseIntegerOption('--engine-timeout', opts.engineTimeout, 1) : undefined;
        const openingsFile = opts.openings ?? DEFAULT_OPENINGS;
        const openings = readOpenings(openingsFile);
        const openingsSource = opts.openings ?? relative(process.cwd(), DEFAULT_OPENINGS);
        const pgnGames: string[] = [];
        // Checked now, written from the first game on: a match refused before its first game leaves the file as it was.
        if (opts.pgn) checkAppendable(opts.pgn);
        let pgnStarted = false;
        // Progress every tenth of the match (every game for short ones), and at least every half minute.
        const progressEvery = sprt ? 10 : Math.max(1, Math.ceil(games / 10));
        const started = performance.now();
        let lastProgress = started;
        let interrupted = false;
        const onSigint = () => {
          interrupted = true;
          process.stderr.write('morph: stopping; games in progress are not counted (Ctrl-C again to quit at once)\n');
          process.once('SIGINT', () => process.exit(130));
        };
        process.once('SIGINT', onSigint);
        let summary: MatchSummary;
        try {
          summary = await runMatch({
            first: opts.white,
            second: opts.black,
            games,
            openings,
            openingsSource,
            concurrency,
            sprt,
            seed,
            maxPlies: parseIntegerOption('--max-plies', opts.maxPlies, 1),
            maxFailures: parseIntegerOption('--max-failures', opts.maxFailures, 1),
            firstModel: opts.whiteModel,
            secondModel: opts.blackModel,
            modelMode: parseModelModeOption(opts.modelMode),
            firstPolicy: opts.whitePolicy ?? (opts.policy ? undefined : false),
            secondPolicy: opts.blackPolicy ?? (opts.policy ? undefined : false),
            firstGraphPatterns: opts.graphPatterns === false ? false : undefined,
            firstMovePolicy: opts.whiteMovePolicy,
            policyWeight: parsePolicyWeightOption(opts.policyWeight),
            contempt: parseContemptOption(opts.contempt),
            maturity: opts.maturity !== undefined ? parseIntegerOption('--maturity', opts.maturity, 0) : undefined,
            search: parseSearchOption(opts.search),
            movePatterns: opts.movePatterns,
            materialPrior: parseMaterialPriorOption(opts.materialPrior),
            engineTimeouts: timeout ? { searchTimeoutMs: timeout } : undefined,
            shouldStop: () => interrupted,
            onGame: (_game, pgn, tally) => {
              if (opts.pgn) {
                // The first game replaces what the file held before; the others follow it.
                (pgnStarted ? appendFileSync : writeFileSync)(opts.pgn, pgn + '\n\n');
                pgnStarted = true;
              }
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
        const warning = repeatWarning(summary);
        if (opts.json) {
          const warnings = warning ? [warning] : [];
          printLine(JSON.stringify(opts.pgn ? { ...summary, warnings, pgnFile: opts.pgn } : { ...summary, warnings, pgn: pgnGames }));
          if (warning) process.stderr.write(`morph: ${warning}\n`);
        } else {
          printLine(summaryText(summary, opts.pgn));
        }
        if (summary.stopReason === 'engine-failures') {
          throw new MorphError(`match stopped after ${opts.maxFailures} engine failures in a row: ${summary.lastFailure}`);
        }
      }),
    );
}
