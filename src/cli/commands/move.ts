/** `morph move`: Morph's choice in a position, the full ranking, and with --explain the patterns behind it. */
import type { Command } from 'commander';
import { Chess } from 'chess.js';
import { checkFen } from '../../chess/fen.ts';
import { GameHistory } from '../../chess/history.ts';
import { MovePatterns } from '../../model/movePatterns.ts';
import { MorphPlayer, playingMaturity, type RankedMove } from '../../player/morphPlayer.ts';
import { explainChoice, explanationText, type MoveExplanation } from '../../player/explain.ts';
import { openStoreForReading } from '../../store/location.ts';
import { BAD_INPUT, MorphError, badInput } from '../../util/errors.ts';
import { action, printLine, reportError } from '../run.ts';
import { readInputLines } from '../../util/inputLines.ts';
import { CONTEMPT_HELP, MATERIAL_PRIOR_HELP, parseContemptOption, parseIntegerOption, parseMaterialPriorOption, parsePolicyWeightOption, parseSearchOption, parseSeedOption, POLICY_WEIGHT_HELP, SEARCH_HELP } from '../options.ts';
import { evaluationWithMaterialPrior } from '../../learn/config.ts';
import type { OpponentModel } from '../../model/opponentModel.ts';
import { modelPolicy } from '../../model/policy.ts';
import { openPolicyModel } from '../../model/ownPolicy.ts';
import { checkDatabaseFileKind } from '../../store/databaseKind.ts';

interface MoveOptions {
  fen?: string;
  input?: string;
  db?: string;
  json?: boolean;
  explain?: boolean;
  move?: string;
  maturity?: string;
  search?: string;
  seed: string;
  policy?: string | false;
  /** False from --no-graph-patterns. */
  graphPatterns?: boolean;
  policyWeight?: string;
  materialPrior?: string;
  contempt?: string;
  movePatterns?: string;
}

export interface MoveReport {
  fen: string;
  best: string;
  /**
   * What chose the best move: its value (and policy), a mate by checks Morph forces (mateIn), or the rules' order for
   * mating a bare king (bareKing.ts).
   */
  chosenBy: 'value' | 'bare-king' | 'mate';
  /**
   * refutation: with search "captures", the opponent capture (UCI) that set the move's value. policy: with a move
   * policy, its term (weight x log-probability), added to the value when choosing. score: what the moves are ranked
   * by (the value, or its log-odds with the material searches, plus the policy's and the graph patterns' terms).
   */
  ranking: { move: string; san: string; value: number; score: number; source: string; refutation?: string; policy?: number; mateIn?: number }[];
  explanation?: MoveExplanation;
}

/** UCI -> SAN for every legal move of a position, from one chess.js call. */
function sanByUci(fen: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const m of new Chess(fen).moves({ verbose: true })) map.set(m.from + m.to + (m.promotion ?? ''), m.san);
  return map;
}

export function chooseAndReport(player: MorphPlayer, rawFen: string, explain: boolean, explainOnly?: string): MoveReport {
  const fen = checkFen(rawFen);
  const history = new GameHistory(fen);
  const { move: chosen, ranking, chosenBy } = player.choose(history, explain);
  const sans = sanByUci(fen);
  const round = (v: number) => Math.round(v * 1e4) / 1e4;
  const report: MoveReport = {
    fen,
    best: chosen,
    chosenBy,
    ranking: ranking.map((r) => ({
      move: r.move,
      san: sans.get(r.move) ?? r.move,
      value: round(r.value),
      score: round(player.choiceScore(r)),
      source: r.source,
      ...(r.refutation ? { refutation: r.refutation.move } : {}),
      ...(r.policy !== undefined ? { policy: round(r.policy) } : {}),
      ...(r.mateIn !== undefined ? { mateIn: r.mateIn } : {}),
    })),
  };
  if (explain) {
    const target = explainOnly ?? chosen;
    const ranked: RankedMove | undefined = ranking.find((r) => r.move === target);
    if (!ranked) throw badInput(`"${target}" is not a legal move in this position (moves are in UCI, e.g. e2e4)`);
    report.explanation = explainChoice(player, history, ranked);
  }
  return report;
}

function reportText(report: MoveReport): string {
  const mateIn = report.ranking[0]?.mateIn;
  const mating =
    report.chosenBy === 'bare-king'
      ? ': mating the bare king by the rules (promotion, forced mate, fewest king replies, kings closer)'
      : report.chosenBy === 'mate'
        ? `: mate by checks in ${mateIn} moves, whatever the replies`
        : '';
  const lines = [`best: ${report.best} (${report.ranking.find((r) => r.move === report.best)?.san})${mating}`];
  for (const r of report.ranking) {
    const after = r.refutation ? `, after ${r.refutation}` : '';
    const policy = r.policy !== undefined ? `  policy ${r.policy >= 0 ? '+' : ''}${r.policy.toFixed(4)}` : '';
    const source = r.mateIn !== undefined ? `mate in ${r.mateIn}` : r.source;
    const score = `  score ${r.score >= 0 ? '+' : ''}${r.score.toFixed(4)}`;
    lines.push(`  ${r.move.padEnd(6)} ${r.san.padEnd(8)} ${r.value.toFixed(4)}${policy}${score}  ${source}${after}`);
  }
  if (report.explanation) lines.push('', explanationText(report.explanation));
  return lines.join('\n');
}

export function registerMoveCommand(program: Command): void {
  program
    .command('move')
    .description("Morph's move in a position, with every legal move ranked (by its search, values and policy)")
    .option('--fen <fen>', 'the position, as FEN')
    .option('--input <file>', 'a file with one FEN per line (- for stdin): one answer per position (one JSON object per line with --json)')
    .option('--db <file>', 'pattern database (default: data/morph.db in the checkout, or $MORPH_DB)')
    .option('--json', 'JSON output: {"best":…, "ranking":[{"move","san","value"},…]}')
    .option('--explain', "show every term of the chosen move's score (the line that set its value, material, square values, policy, graph patterns) and the patterns behind it")
    .option('--move <uci>', 'with --explain: explain this move instead of the chosen one')
    .option('--seed <n>', 'seed for the random tie-break', '1')
    .optionsGroup('Search and evaluation:')
    .option('--search <search>', `${SEARCH_HELP}: how far Morph looks (default: the database's)`)
    .option('--maturity <n>', "ignore patterns with fewer updates than this (default: the database's)")
    .option('--material-prior <k>', MATERIAL_PRIOR_HELP)
    .option('--contempt <c>', CONTEMPT_HELP)
    .option('--no-graph-patterns', 'rank without what the graph patterns add (their terms and the policy\'s term): material and square values only')
    .option('--move-patterns <file>', 'the move-pattern database (morph model --move-patterns) whose highest-ranked quiet moves a search with patterns=K follows')
    .optionsGroup('Move policy:')
    .option('--policy <file>', "a model of a strong player (morph model) as Morph's move policy (default: the database's own, DB.policy.db, if built)")
    .option('--no-policy', 'rank without a move policy')
    .option('--policy-weight <x>', POLICY_WEIGHT_HELP)
    .action(
      action((opts: MoveOptions) => {
        if (!opts.fen === !opts.input) throw badInput('give exactly one of --fen FEN or --input FILE');
        if (opts.move && !opts.explain) opts.explain = true;
        // Bad input is reported before anything else is opened or printed.
        if (opts.fen) checkFen(opts.fen);
        const maturity = opts.maturity === undefined ? undefined : parseIntegerOption('--maturity', opts.maturity, 0);
        const search = parseSearchOption(opts.search);
        const seed = parseSeedOption(opts.seed)!;
        const policyWeight = parsePolicyWeightOption(opts.policyWeight);
        const materialPrior = parseMaterialPriorOption(opts.materialPrior);
        const contempt = parseContemptOption(opts.contempt);
        if (typeof opts.policy === 'string') checkDatabaseFileKind(opts.policy, 'opponent-model');
        if (opts.movePatterns !== undefined) checkDatabaseFileKind(opts.movePatterns, 'move-patterns');
        const { store, fresh } = openStoreForReading(opts.db);
        let policyModel: OpponentModel | null = null;
        try {
          policyModel = openPolicyModel(store.path, opts.policy);
        } catch (error) {
          store.close();
          throw error;
        }
        const policy = policyModel !== null ? modelPolicy(policyModel, policyWeight) : undefined;
        const evaluation = evaluationWithMaterialPrior(store.db, materialPrior);
        const movePatterns = opts.movePatterns === undefined ? undefined : MovePatterns.open(opts.movePatterns);
        const options = { maturity: playingMaturity(store, maturity), seed, search, policy, evaluation, contempt, graphPatterns: opts.graphPatterns !== false, movePatterns };
        if (fresh && !opts.json) process.stderr.write('morph: no database yet (train first); every move values 0.5\n');
        const player = new MorphPlayer(store, options);
        const show = (report: MoveReport) => printLine(opts.json ? JSON.stringify(report) : reportText(report));
        try {
          if (opts.fen) {
            show(chooseAndReport(player, opts.fen, !!opts.explain, opts.move));
            return;
          }
          let failures = 0;
          for (const line of readInputLines(opts.input!)) {
            try {
              show(chooseAndReport(player, line.text, !!opts.explain, opts.move));
            } catch (error) {
              failures++;
              reportError(new MorphError(`line ${line.number}: ${(error as Error).message}`, BAD_INPUT));
            }
          }
          if (failures) process.exitCode = BAD_INPUT;
        } finally {
          store.close();
          policyModel?.close();
          movePatterns?.close();
        }
      }),
    );
}
