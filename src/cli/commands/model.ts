/**
 * `morph model`: builds an opponent model database from one player's decisions, read from recorded games
 * (--pgn FILE --player NAME) or watched as the player (any SPEC) plays a partner (--watch SPEC --partner SPEC).
 * See src/model/modelBuilder.ts for what is learned and docs/opponent-models.md for the design.
 */
import type { Command } from 'commander';
import { writeFileSync } from 'node:fs';
import { checkAppendable } from '../../util/outputFile.ts';
import { formatOpponentSpec, parseOpponentSpec } from '../../engines/opponentSpec.ts';
import { playerDecisions, readPgnText } from '../../model/decisions.ts';
import { DEFAULT_OPENING_PLIES, playCollection } from '../../match/gameCollection.ts';
import { MATERIAL_MODES, type FeatureSet, type MaterialMode } from '../../model/opponentModel.ts';
import { buildModel, SHRINKAGE_CANDIDATES, type BuildSummary } from '../../model/modelBuilder.ts';
import { checkNewFilePath } from '../../store/wholeFile.ts';
import { buildOwnPolicy, OWN_POLICY_GAMES, partnerDecisions, type PartnerGames } from '../../model/ownPolicy.ts';
import { buildMovePatterns, partnerLessons, type MovePatternSettings, type MovePatternSummary } from '../../model/movePatterns.ts';
import { DEFAULT_MOVE_LESSON_GAP, MOVE_LESSON_LOOKS, quietMoveLessons, searchQuietMoves, type MoveLessonLook, type SearchedPosition } from '../../train/moveLessons.ts';
import { PatternStore } from '../../store/patternStore.ts';
import { loadConfig } from '../../learn/config.ts';
import type { Decision } from '../../model/decisions.ts';
import { checkDatabaseFileKind, openDatabaseOfKind } from '../../store/databaseKind.ts';
import { closeMorphDatabase } from '../../store/database.ts';
import { badInput } from '../../util/errors.ts';
import { freshSeed, Random } from '../../util/random.ts';
import { parseIntegerOption, parseNumberOption, parseModelSearchOption, parseSeedOption } from '../options.ts';
import { LINE_SHAPES, MODEL_SEARCH_MODES, type LineShape } from '../../search/search.ts';
import { action, printLine } from '../run.ts';
import { PATTERN_LANGUAGES, type PatternLanguage } from '../../learn/config.ts';

interface ModelOptions {
  out?: string;
  fromDb?: string;
  last: string;
  pgn?: string;
  player?: string;
  watch?: string;
  partner?: string;
  games: string;
  savePgn?: string;
  seed?: string;
  patternsPerDecision?: string;
  passes?: string;
  shrinkage?: string;
  features: string;
  language: string;
  search?: string;
  material?: string;
  fitThroughSearch?: boolean;
  squareValues?: boolean;
  mobility?: boolean;
  line: string;
  freshSquares?: boolean;
  json?: boolean;
  progress: boolean;
  movePatterns?: boolean;
  movePatternTarget: string;
  positionsPerGame: string;
  gap: string;
  lessonLook: string;
}

function summaryText(s: BuildSummary & { squareGames?: number }, out: string): string {
  return [
    `model of "${s.player}" written to ${out}: ${s.patterns} patterns`,
    `from ${s.games} games (${s.source}), ${s.decisions} decisions (${s.forced} forced); seed ${s.seed}`,
    `fit: mean log-likelihood ${s.logLikelihood.toFixed(3)} per decision; ` +
      `${s.seconds.patterns.toFixed(1)} s patterns, ${s.seconds.fitting.toFixed(1)} s fitting`,
    ...(s.shrinkageChoice
      ? [
          `shrinkage ${s.settings.shrinkage}, chosen on ${s.shrinkageChoice.heldOutDecisions} held-out decisions ` +
            `by top-1 (top-1, log-likelihood: ${s.shrinkageChoice.trials.map((t) => `${t.shrinkage}: ${(100 * t.top1).toFixed(1)}%, ${t.logLikelihood.toFixed(3)}`).join('; ')})`,
        ]
      : []),
    ...(s.lineChoice
      ? [
          `line ${s.settings.line}, chosen on ${s.lineChoice.heldOutDecisions} held-out decisions by the top-1 of the line alone ` +
            `(${s.lineChoice.trials.map((t) => `${t.line}: ${(100 * t.top1).toFixed(1)}%`).join('; ')})`,
        ]
      : []),
    ...(s.squares
      ? [
          `square values for play fitted on ${s.squares.decisions} of ${s.squares.of} decisions` +
            `${s.squares.fits > 1 ? ` over ${s.squares.fits} builds` : ''}` +
            `${s.squareGames !== undefined ? ` (${s.squareGames} games${s.squares.fits > 1 ? ' new' : ''})` : ''} in ${s.squares.seconds.toFixed(1)} s`,
        ]
      : []),
  ].join('\n');
}

/** `--shrinkage`: a pull, or "auto" (the first fit keeps .1; the last one's pull is chosen by validation). */
function shrinkageSettings(value: string): { shrinkage: number; shrinkageCandidates: readonly number[] } {
  if (value === 'auto') return { shrinkage: 0.1, shrinkageCandidates: SHRINKAGE_CANDIDATES };
  return { shrinkage: parseNumberOption('--shrinkage', value, 0), shrinkageCandidates: [] };
}

export function registerModelCommand(program: Command): void {
  program
    .command('model')
    .description("build an opponent model: which moves one player chooses, from its games or by watching it play")
    .option('--out <file>', 'the model database to create (must not exist; with --from-db default: DB.policy.db, replaced)')
    .option('--pgn <file>', 'recorded games; only the moves of --player are learned')
    .option('--player <name>', 'the player, as written in the White or Black tag')
    .option('--watch <spec>', 'instead of --pgn: the player to watch (any opponent SPEC)')
    .option('--from-db <file>', "a value database's training games: its partners' moves, as Morph's own move policy (beside the database unless --out)")
    .option('--seed <n>', 'seed of pattern induction, fitting and (with --watch) openings (default: fresh, reported)')
    .option('--json', 'print the summary as JSON')
    .option('--no-progress', 'no progress lines on stderr')
    .optionsGroup('Watching a player (--watch):')
    .option('--partner <specs>', 'with --watch: the partner(s) it plays, separated by ";" (used in turn)')
    .option('--games <n>', 'with --watch: games to watch (colours alternate; varied random openings)', '100')
    .option('--save-pgn <file>', 'with --watch: also write the watched games to this PGN file')
    .optionsGroup("Morph's own move policy (--from-db):")
    .option('--last <n>', `with --from-db: its last N games (self-play left out)`, String(OWN_POLICY_GAMES))
    .option('--fresh-squares', "with --from-db: fit the square values on the database's games afresh, not adding the games since the last build to the replaced policy's evidence")
    .optionsGroup('Move patterns (issue 71):')
    .option('--move-patterns', "learn move patterns instead (SYLPH's: patterns of move graphs, which moves the player chooses; src/model/movePatterns.ts) from --pgn/--player or --from-db (its partners' moves in its last --last games) into --out; rank with morph agree --ranker move-patterns:FILE")
    .option('--move-pattern-target <target>', "with --move-patterns: partner (the moves the player chose) or search (with --from-db: in positions of its last --last games, the quiet moves whose value Morph's play search, one ply deeper, finds above their capture-settled material by more than --gap; src/train/moveLessons.ts)", 'partner')
    .option('--positions-per-game <n>', 'with --move-pattern-target search: positions of each game whose quiet moves are searched (a search each)', '2')
    .option('--lesson-look <look>', `with --move-pattern-target search: ${MOVE_LESSON_LOOKS.join(' | ')}: each quiet move followed through every reply (as the patterns=K look follows it), or the play search one ply deeper (a search a move, several times dearer)`, 'followed')
    .option('--gap <x>', `with --move-pattern-target search: how far above its settled material, in log-odds, a quiet move's searched value must be to count (default ${DEFAULT_MOVE_LESSON_GAP})`)
    .optionsGroup('Fitting:')
    .option('--patterns-per-decision <n>', 'induced patterns per chosen position', '2')
    .option('--passes <n>', 'fitting passes', '4')
    .option('--shrinkage <x>', "L2 pull of the patterns' scores towards indifference, or auto: chosen by validation on held-out games among " + SHRINKAGE_CANDIDATES.join(', ') + " (default: auto; 0.01 with --from-db)")
    .option('--features <set>', 'all (every matching pattern) or most-specific (only those, as Morph plays)', 'all')
    .option('--language <name>', "paper | safety: the pattern language (see morph train --language)", 'paper')
    .option('--search <mode>', `${MODEL_SEARCH_MODES.join(' | ')}: also the opponent's capture replies when ranking, or a move's own position only (default: one-ply; captures with --from-db)`)
    .option('--fit-through-search', 'fit the weights through the --search look too (measured worse; default: fit one ply)')
    .option('--material <mode>', `${MATERIAL_MODES.join(' | ')}: material through the exact material pattern only, also a learned score per piece of difference, also a learned weight on the material a move loses to the opponent's captures, or also one on the balance a two-ply material search finds (default: two-ply; exact with --from-db)`)
    .option('--square-values', "with --material two-ply: the search's evaluation also learns a value per piece type and square (the default)")
    .option('--no-square-values', 'with --material two-ply: the search weighs material only')
    .option('--mobility', "with --material settled or two-ply: also learn how much the player weighs both sides' mobility after its move")
    .option('--line <shape>', `with --material two-ply: ${LINE_SHAPES.join(' | ')} | auto: the two-ply line ends in the mover's captures (a quiescence), ends after the two plies, or goes a ply further after a check (for a player that searches two plies without a quiescence); auto chooses by validation on held-out games (about three times the line's fitting)`, 'quiescence')
    .action(
      action(async (opts: ModelOptions) => {
        if (!(PATTERN_LANGUAGES as readonly string[]).includes(opts.language)) {
          throw badInput(`--language must be one of ${PATTERN_LANGUAGES.join(', ')}`);
        }
        const seed = parseSeedOption(opts.seed) ?? freshSeed();
        const settings = {
          patternsPerDecision: parseIntegerOption('--patterns-per-decision', opts.patternsPerDecision ?? '2', 0, 50),
          passes: parseIntegerOption('--passes', opts.passes ?? '4', 1, 100),
          // Measured (docs/lab/2026-11.md, 2026-11-25): the pull that predicts best differs by player (ab:2,q 1,
          // Toga II .1), so a model of a player's games chooses it by validation. Morph's own policy keeps the pull
          // it was measured with in play.
          ...shrinkageSettings(opts.shrinkage ?? (opts.fromDb !== undefined ? '0.01' : 'auto')),
          features: parseFeatureSet(opts.features),
          language: opts.language as PatternLanguage,
          // Measured best (docs/lab/2026-11.md, 2026-11-25 afternoon): a model of a player's choices predicts best
          // two-ply and one ply; Morph's own policy plays best exact with the captures look.
          search: parseModelSearchOption(opts.search ?? (opts.fromDb !== undefined ? 'captures' : 'one-ply'))!,
          material: parseMaterialMode(opts.material ?? (opts.fromDb !== undefined ? 'exact' : 'two-ply')),
          fitThroughSearch: opts.fitThroughSearch === true,
          squareValues: opts.squareValues ?? true,
          mobility: opts.mobility === true,
          ...lineSettings(opts.line),
        };
        if (settings.mobility && settings.material !== 'settled' && settings.material !== 'two-ply') {
          throw badInput('--mobility needs --material settled or two-ply');
        }
        if (opts.line !== 'quiescence' && settings.material !== 'two-ply') throw badInput('--line needs --material two-ply');
        const progress = (message: string) => opts.progress && process.stderr.write(`morph: ${message}\n`);
        if (opts.movePatternTarget !== 'partner' && opts.movePatternTarget !== 'search') {
          throw badInput(`--move-pattern-target must be partner or search, got "${opts.movePatternTarget}"`);
        }
        if (opts.movePatternTarget === 'search' && !opts.movePatterns) throw badInput('--move-pattern-target needs --move-patterns');
        if (opts.movePatterns) {
          printLine(learnMovePatternFile(opts, seed, settings, progress));
          return;
        }
        if (opts.fromDb !== undefined) {
          if (opts.pgn !== undefined || opts.watch !== undefined) throw badInput('give one of --pgn, --watch and --from-db');
          const lastGames = parseIntegerOption('--last', opts.last, 1);
          if (opts.out !== undefined) checkNewFilePath(opts.out);
          const built = buildOwnPolicy(opts.fromDb, {
            lastGames,
            out: opts.out,
            replace: opts.out === undefined,
            seed: parseSeedOption(opts.seed),
            freshSquares: opts.freshSquares === true,
            settings,
            onProgress: progress,
          });
          if (built === null) throw badInput(`${opts.fromDb} has no recorded games against a partner yet: train first`);
          printLine(opts.json ? JSON.stringify(built) : summaryText(built, built.file));
          return;
        }
        if (opts.out === undefined) throw badInput('give --out FILE: the model database to create');
        const out = opts.out;
        checkNewFilePath(out);
        let text: string;
        let player: string;
        let source: string;
        if (opts.pgn !== undefined) {
          if (opts.watch !== undefined) throw badInput('give either --pgn or --watch, not both');
          if (!opts.player) throw badInput('--pgn needs --player NAME (as written in the White or Black tag)');
          text = readPgnText(opts.pgn);
          player = opts.player;
          source = opts.pgn;
        } else if (opts.watch !== undefined) {
          if (!opts.partner) throw badInput('--watch needs --partner SPEC');
          player = formatOpponentSpec(parseOpponentSpec(opts.watch));
          const partners = opts.partner.split(';').map((s) => s.trim()).filter(Boolean);
          for (const partner of partners) parseOpponentSpec(partner);
          const games = parseIntegerOption('--games', opts.games, 1);
          if (opts.savePgn) checkAppendable(opts.savePgn);
          const pgns = await playCollection({
            player: opts.watch,
            partners,
            games,
            seed,
            openingPlies: DEFAULT_OPENING_PLIES,
            onGame: (_pgn, index) => {
              if ((index + 1) % 10 === 0) progress(`watched ${index + 1}/${games} games`);
            },
          });
          text = pgns.join('\n\n') + '\n';
          if (opts.savePgn) writeFileSync(opts.savePgn, text);
          source = `watched against ${partners.join(', ')}`;
        } else {
          throw badInput('give the games: --pgn FILE --player NAME, or --watch SPEC --partner SPEC --games N');
        }
        const { played, decisions } = playerDecisions(text, player, opts.pgn ?? 'the watched games');
        const summary = buildModel({ out, player, source, games: played, decisions, seed, settings, onProgress: progress });
        printLine(opts.json ? JSON.stringify(summary) : summaryText(summary, out));
      }),
    );
}

/** `morph model --move-patterns`: the decisions from --from-db or --pgn/--player, learned into --out; the summary line. */
function learnMovePatternFile(
  opts: ModelOptions,
  seed: number,
  settings: { patternsPerDecision: number; passes: number; shrinkage: number },
  progress: (message: string) => void,
): string {
  if (opts.out === undefined) throw badInput('--move-patterns needs --out FILE: the move-pattern database to create');
  checkNewFilePath(opts.out);
  if (opts.movePatternTarget === 'search') return learnSearchMovePatternFile(opts, opts.out, seed, settings, progress);
  let decisions: Decision[];
  let info: Record<string, unknown>;
  if (opts.fromDb !== undefined) {
    if (opts.pgn !== undefined) throw badInput('give one of --pgn and --from-db');
    const lastGames = parseIntegerOption('--last', opts.last, 1);
    const db = openDatabaseOfKind(opts.fromDb, 'value', { readonly: true, quickCheck: false });
    try {
      const partner = partnerDecisions(db, opts.fromDb, lastGames);
      if (partner.games === 0) throw badInput(`${opts.fromDb} has no recorded games against a partner yet: train first`);
      decisions = partner.decisions;
      info = { source: opts.fromDb, games: partner.games, firstGame: partner.firstGame, lastGame: partner.lastGame, player: partner.partners.join(', ') };
    } finally {
      closeMorphDatabase(db);
    }
  } else if (opts.pgn !== undefined) {
    if (!opts.player) throw badInput('--pgn needs --player NAME (as written in the White or Black tag)');
    const found = playerDecisions(readPgnText(opts.pgn), opts.player, opts.pgn);
    decisions = found.decisions;
    info = { source: opts.pgn, games: found.played, player: opts.player };
  } else {
    throw badInput('--move-patterns learns from --pgn FILE --player NAME or --from-db FILE');
  }
  const { patternsPerDecision, passes, shrinkage } = settings;
  const summary = buildMovePatterns(opts.out, partnerLessons(decisions), info, { patternsPerDecision, passes, shrinkage }, seed, progress);
  return movePatternSummaryText(opts, info, summary, seed);
}

/**
 * `morph model --move-patterns --move-pattern-target search`: the quiet moves of positions of --from-db's last games,
 * each searched (train/moveLessons.ts), learned into --out; the summary line.
 */
function learnSearchMovePatternFile(
  opts: ModelOptions,
  out: string,
  seed: number,
  settings: Pick<MovePatternSettings, 'patternsPerDecision' | 'passes' | 'shrinkage'>,
  progress: (message: string) => void,
): string {
  if (opts.fromDb === undefined || opts.pgn !== undefined) throw badInput('--move-pattern-target search learns from --from-db FILE (its games, searched by its play search)');
  const lastGames = parseIntegerOption('--last', opts.last, 1);
  const perGame = parseIntegerOption('--positions-per-game', opts.positionsPerGame, 1, 1000);
  const gap = opts.gap === undefined ? DEFAULT_MOVE_LESSON_GAP : parseNumberOption('--gap', opts.gap, 0);
  const look = opts.lessonLook as MoveLessonLook;
  if (!(MOVE_LESSON_LOOKS as readonly string[]).includes(look)) throw badInput(`--lesson-look must be one of ${MOVE_LESSON_LOOKS.join(', ')}, got "${opts.lessonLook}"`);
  checkDatabaseFileKind(opts.fromDb, 'value');
  const store = PatternStore.open(opts.fromDb, { readonly: true });
  let positions: SearchedPosition[];
  let games: PartnerGames;
  const started = performance.now();
  try {
    games = partnerDecisions(store.db, opts.fromDb, lastGames, { bothSides: true });
    if (games.games === 0) throw badInput(`${opts.fromDb} has no recorded games against a partner yet: train first`);
    positions = searchQuietMoves(store, loadConfig(store.db), games.decisions, perGame, new Random(seed), look, progress);
  } finally {
    store.close();
  }
  const quiet = positions.reduce((sum, p) => sum + p.quiet.length, 0);
  const positives = positions.reduce((sum, p) => sum + p.quiet.filter((q) => q.gap > gap).length, 0);
  const info = {
    source: opts.fromDb, games: games.games, firstGame: games.firstGame, lastGame: games.lastGame, player: "Morph's play search",
    target: 'search', look, gap, positionsPerGame: perGame, quietMoves: quiet, positiveMoves: positives, searchSeconds: (performance.now() - started) / 1000,
  };
  progress(`${positions.length} positions, ${quiet} quiet moves searched in ${info.searchSeconds.toFixed(1)} s; ${positives} above the gap; learning`);
  const { patternsPerDecision, passes, shrinkage } = settings;
  const summary = buildMovePatterns(out, { lessons: quietMoveLessons(positions, gap), count: positions.length }, info, { patternsPerDecision, passes, shrinkage }, seed, progress);
  return movePatternSummaryText(opts, info, summary, seed);
}

function movePatternSummaryText(opts: ModelOptions, info: Record<string, unknown>, summary: MovePatternSummary, seed: number): string {
  const all = { ...info, ...summary, seed, out: opts.out };
  if (opts.json) return JSON.stringify(all);
  return [
    `move patterns of "${info.player}" written to ${opts.out}: ${summary.patterns} patterns`,
    `from ${info.games} games (${info.source}), ${summary.decisions} decisions (${summary.forced} forced), ${summary.positives} positive moves; seed ${seed}`,
    `fit: mean log-likelihood ${summary.logLikelihood.toFixed(3)} per decision; ${summary.seconds.patterns.toFixed(1)} s patterns, ` +
      `${summary.seconds.features.toFixed(1)} s matching, ${summary.seconds.fitting.toFixed(1)} s fitting`,
  ].join('\n');
}

function parseMaterialMode(text: string): MaterialMode {
  if (!(MATERIAL_MODES as readonly string[]).includes(text)) throw badInput(`--material must be one of ${MATERIAL_MODES.join(', ')}, got "${text}"`);
  return text as MaterialMode;
}

function lineSettings(text: string): { line: LineShape; lineCandidates: readonly LineShape[] } {
  if (text === 'auto') return { line: LINE_SHAPES[0], lineCandidates: LINE_SHAPES };
  if (!(LINE_SHAPES as readonly string[]).includes(text)) throw badInput(`--line must be one of ${LINE_SHAPES.join(', ')}, auto, got "${text}"`);
  return { line: text as LineShape, lineCandidates: [] };
}

function parseFeatureSet(text: string): FeatureSet {
  if (text !== 'all' && text !== 'most-specific') throw badInput(`--features must be all or most-specific, got "${text}"`);
  return text;
}

