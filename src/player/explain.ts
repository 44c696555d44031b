/**
 * Why Morph values a move as it does, and why it ranks it where it does.
 *
 * explainMove: the most-specific patterns the resulting position matched, which of them were mature enough to
 * count, and the evaluation function's combination step by step, in the very order the player folds them
 * (eval/evaluation.ts, combinationSteps).
 *
 * explainChoice: that, and every term of the move's score, the number the player ranks moves by (morphPlayer.ts,
 * choiceScore), taken from the player's own ranking: the value (with the material searches, its log-odds split
 * into the fitted piece values' part, the square values' part and the material pattern's own weight, read at the
 * end of the line that set it), the graph patterns' term with the patterns behind it, the policy's term, and the
 * penalty of a proven loss. The line is found by valuing the move again as the ranking did (positionsValuedFor)
 * and looking for the position whose value the move's is.
 */
import { combinationSteps, PAPER_EVALUATION, type EvaluationSettings } from '../eval/evaluation.ts';
import { describePattern, MATERIAL_PIECES } from '../pattern/pattern.ts';
import type { PatternRecord } from '../store/patternRecord.ts';
import { applyMove, boardToFen, cloneBoard, uciMove, type Board } from '../chess/board.ts';
import { generateLegalMoves } from '../chess/movegen.ts';
import { positionKey } from '../chess/positionKey.ts';
import { gameSans } from '../chess/san.ts';
import type { GameHistory } from '../chess/history.ts';
import { buildPositionGraph, materialDifference } from '../graph/positionGraph.ts';
import { provenLossPenalty, scaledValue, type MorphPlayer, type RankedMove, type ValuedPosition } from './morphPlayer.ts';
import { QUIESCENCE_DEPTH } from '../search/search.ts';
import { signed } from '../util/format.ts';

export interface ExplainedPattern {
  id: number;
  kind: 'graph' | 'material';
  weight: number;
  updates: number;
  origin: string;
  /** Counted in the value (has at least `maturity` updates). */
  used: boolean;
  description: string;
}

export interface MoveExplanation {
  move: string;
  san: string;
  value: number;
  source: string;
  maturity: number;
  evaluation: EvaluationSettings;
  patterns: ExplainedPattern[];
  /** The combination applied in order: each step adds one pattern (with the weight it counts with). */
  combination: { id: number; weight: number; runningValue: number }[];
  /** A material value blended with the piece values fitted to all material patterns (materialFit.ts). */
  blend?: { fitted: number; prior: number; value: number };
  /** Search "captures": the opponent capture that set the value; the patterns above value the position before it. */
  refutation?: { move: string; san: string; value: number; source: string; positionValue: number; mateIn?: number };
  /** The move begins a mate by checks Morph forces in this many of its moves (MorphPlayer.ownMate). */
  mateIn?: number;
  /** explainChoice: the move's score, what the player ranks moves by, and the terms that sum to it. */
  score?: ExplainedScore;
}

/** One term of a move's score. */
export interface ScoreTerm {
  /**
   * value: the value as it is (the paper's scale); rules: a value the rules set (a mate, a draw); material, squares, relations,
   * material-pattern: the log-odds of a value read from material; graph: the graph patterns' term; policy: the
   * policy's; proven-loss: the penalty of a move the opponent mates after; unexplained: a value whose line was not found.
   */
  term: 'value' | 'rules' | 'material' | 'squares' | 'relations' | 'material-pattern' | 'graph' | 'policy' | 'proven-loss' | 'unexplained';
  value: number;
  /** What it is, in a few words. */
  detail: string;
}

export interface ExplainedScore {
  /** choiceScore of the ranked move: the sum of the terms. */
  score: number;
  /** How the value enters the score: as it is, or its log-odds (the material searches). */
  scale: 'probability' | 'log-odds';
  terms: ScoreTerm[];
  /**
   * With the material searches: the line from the move to the position whose value set the move's (empty: the
   * move's own position), in SAN and UCI, and that position. Absent when the value was set by the rules or the line
   * was not found (then `moves` is absent and only `fen` is known, or neither).
   */
  line?: { moves?: string[]; ucis?: string[]; fen: string; value: number };
  /** The graph patterns whose terms make the graph term, largest first. */
  graphPatterns?: { id: number; term: number; description: string }[];
}

const round = (v: number) => Math.round(v * 1e4) / 1e4;

/** Patterns, and steps of their combination, the text names (--json has them all). */
const PATTERNS_SHOWN = 8;

/** Most extreme weight first (the order the paper's fold takes), for listing the matches. */
function byExtremeness(records: PatternRecord[]): PatternRecord[] {
  return [...records].sort((a, b) => Math.abs(b.weight - 0.5) - Math.abs(a.weight - 0.5) || a.weight - b.weight);
}

export function explainMove(
  ranked: RankedMove,
  san: string,
  maturity: number,
  evaluation: EvaluationSettings = PAPER_EVALUATION,
  refutationSan?: string,
): MoveExplanation {
  const matched = ranked.evaluation?.matched ?? [];
  const used = ranked.evaluation?.used ?? [];
  const blend = ranked.evaluation?.blend;
  const usedSet = new Set(used);
  const combination = combinationSteps(used, evaluation).map((step) => ({
    id: used[step.index].id,
    weight: round(step.weight),
    runningValue: round(step.runningValue),
  }));
  return {
    move: ranked.move,
    san,
    value: round(ranked.value),
    source: ranked.source,
    maturity,
    evaluation,
    patterns: byExtremeness(matched).map((record) => ({
      id: record.id,
      kind: record.kind,
      weight: round(record.weight),
      updates: record.updates,
      origin: record.origin,
      used: usedSet.has(record),
      description: describePattern(record.pattern),
    })),
    combination,
    ...(ranked.mateIn !== undefined ? { mateIn: ranked.mateIn } : {}),
    ...(blend ? { blend: { fitted: round(blend.fitted), prior: blend.prior, value: round(ranked.evaluation!.value) } } : {}),
    ...(ranked.refutation
      ? {
        refutation: {
          move: ranked.refutation.move,
          san: refutationSan ?? ranked.refutation.move,
          value: round(ranked.refutation.value),
          source: ranked.refutation.source,
          positionValue: round(ranked.evaluation?.value ?? 0.5),
          ...(ranked.refutation.mateIn !== undefined ? { mateIn: ranked.refutation.mateIn } : {}),
        },
      }
      : {}),
  };
}

export function explanationText(explanation: MoveExplanation): string {
  const lines = [`${explanation.san} (${explanation.move}) is worth ${explanation.value.toFixed(4)} to the side moving`];
  const score = explanation.score;
  if (score) {
    lines.push(...scoreText(explanation, score));
    // The material searches' terms say it all; on the paper's scale the patterns and their combination follow.
    if (score.scale === 'log-odds' || score.terms[0].term === 'rules') return lines.join('\n');
  }
  if (explanation.source === 'repetition') {
    lines.push('  it returns to a position already seen in this game: counted as the draw the opponent can claim by repeating it');
    return lines.join('\n');
  }
  if (explanation.source !== 'patterns') {
    lines.push(`  by the rules: ${explanation.source}`);
    return lines.join('\n');
  }
  if (explanation.mateIn !== undefined) {
    lines.push(`  by the rules: it begins a mate by checks in ${explanation.mateIn}, whatever the opponent replies`);
    return lines.join('\n');
  }
  const refutation = explanation.refutation;
  if (refutation) {
    const how = refutation.source === 'patterns'
      ? 'by its patterns'
      : refutation.mateIn !== undefined && refutation.mateIn > 1
        ? `by the rules: it begins a mate by checks in ${refutation.mateIn}`
        : `by the rules: ${refutation.source}`;
    lines.push(
      `  after the opponent's best reply ${refutation.san} (${refutation.move}), worth ${refutation.value.toFixed(4)} to the side moving (${how});`,
      `  the position after the move itself is worth ${refutation.positionValue.toFixed(4)}:`,
    );
  }
  const blend = explanation.blend;
  if (explanation.patterns.length === 0) {
    lines.push(blend
      ? `  the database has no pattern of its material difference: the piece values fitted to the others give ${blend.value.toFixed(4)}`
      : '  no pattern matched the resulting position, so it is worth 0.5');
    return lines.join('\n');
  }
  lines.push(`  most-specific patterns matched after the move (maturity ${explanation.maturity}):`);
  for (const p of explanation.patterns.slice(0, PATTERNS_SHOWN)) {
    lines.push(
      `  #${p.id} ${p.kind} w=${p.weight.toFixed(3)} updates=${p.updates}${p.used ? '' : ' (immature, ignored)'}: ${p.description}`,
    );
  }
  if (explanation.patterns.length > PATTERNS_SHOWN) lines.push(`  and ${explanation.patterns.length - PATTERNS_SHOWN} more (--json lists them all)`);
  if (explanation.combination.length) {
    const { function: fn, prior } = explanation.evaluation;
    const how = fn === 'paper' ? "the paper's play function, most extreme first"
      : `the paper's play function over weights shrunk by ${prior} draws, most extreme first`;
    lines.push(`  combined by ${how}:`);
    const steps = explanation.combination;
    for (const step of steps.slice(0, PATTERNS_SHOWN)) lines.push(`    #${step.id} (${step.weight.toFixed(3)}) -> ${step.runningValue.toFixed(4)}`);
    if (steps.length > PATTERNS_SHOWN) lines.push(`    and ${steps.length - PATTERNS_SHOWN} more -> ${steps[steps.length - 1].runningValue.toFixed(4)}`);
  }
  if (blend && explanation.patterns.some((p) => p.used)) {
    lines.push(
      `  blended with the piece values fitted to all material patterns, ${blend.fitted.toFixed(4)} for this difference, ` +
        `as ${blend.prior} updates: ${blend.value.toFixed(4)}`,
    );
  } else if (blend) {
    lines.push(`  its pattern being immature, the piece values fitted to the others give ${blend.value.toFixed(4)}`);
  }
  return lines.join('\n');
}

/** Two values this close are one value reached along different roundings (search.ts, ROUNDING). */
const SAME_VALUE = 1e-9;
/** How deep, and over how many positions, the line from a move to the end of its look is looked for. */
const LINE_DEPTH = QUIESCENCE_DEPTH + 4;
const LINE_BUDGET = 50_000;
/** Graph patterns named in the text (the JSON has them all). */
const GRAPH_PATTERNS_SHOWN = 3;

/** The position the move's value was read at, and the moves from the move to it (when found). */
interface LineEnd {
  position: ValuedPosition;
  /** Whether Morph made the last move into it (its value is then the move's as it is, else one minus it). */
  forMover: boolean;
  ucis?: string[];
}

/**
 * explainMove's patterns and combination, and every term of the move's score as `player` ranked it; `ranked` is
 * the move as the player's last ranking of the position at the end of `history` has it (rankMoves or choose, with
 * the evaluations kept).
 */
export function explainChoice(player: MorphPlayer, history: GameHistory, ranked: RankedMove): MoveExplanation {
  const [san, refutationSan] = gameSans(history.board, ranked.refutation ? [ranked.move, ranked.refutation.move] : [ranked.move]);
  const explanation = explainMove(ranked, san, player.options.maturity, player.evaluation, refutationSan);
  return { ...explanation, score: explainScore(player, history, ranked) };
}

function explainScore(player: MorphPlayer, history: GameHistory, ranked: RankedMove): ExplainedScore {
  const scale = player.valueScale;
  const terms: ScoreTerm[] = [];
  let line: ExplainedScore['line'];
  const refutation = ranked.refutation;
  const refutationSan = refutation && gameSans(history.board, [ranked.move, refutation.move])[1];
  const ruled = ruledValue(player, ranked, refutationSan);
  if (scale === 'probability') {
    terms.push({ term: ruled ? 'rules' : 'value', value: ranked.value, detail: ruled ?? valueDetail(ranked, refutationSan) });
  } else if (ruled !== undefined) {
    terms.push({ term: 'rules', value: scaledValue(ranked.value, scale), detail: ruled });
  } else {
    const end = findLineEnd(player, history, ranked);
    if (end === undefined) {
      const byRules = [0, 0.5, 1, player.drawValue, 1 - player.drawValue].some((v) => Math.abs(v - ranked.value) <= SAME_VALUE);
      terms.push(byRules
        ? { term: 'rules', value: scaledValue(ranked.value, scale), detail: 'the line ends in a mate or a draw by the rules' }
        : { term: 'unexplained', value: scaledValue(ranked.value, scale), detail: 'the value of a line this explanation could not follow' });
    } else {
      terms.push(...materialTerms(player, end));
      const start = afterMove(history.board, ranked.move);
      line = {
        ...(end.ucis ? { moves: gameSans(start, end.ucis), ucis: end.ucis } : {}),
        fen: boardToFen(end.position.board),
        value: round(end.position.evaluation.value),
      };
    }
  }
  let graphPatterns: ExplainedScore['graphPatterns'];
  if (ranked.graphTerm !== undefined) {
    graphPatterns = graphTermPatterns(player, history, ranked.move);
    const shown = graphPatterns.slice(0, GRAPH_PATTERNS_SHOWN).map((p) => `#${p.id} ${signed(p.term, 2)} ${p.description}`);
    const more = graphPatterns.length - shown.length;
    terms.push({
      term: 'graph',
      value: ranked.graphTerm,
      detail: graphPatterns.length === 0 ? 'no graph pattern matched after the move has a term' : `${shown.join('; ')}${more > 0 ? `; and ${more} more` : ''}`,
    });
  }
  if (ranked.policy !== undefined) {
    const weight = player.policyWeight!;
    const logProbability = ranked.policy / weight;
    terms.push({
      term: 'policy',
      value: ranked.policy,
      detail: `weight ${weight} x log-probability ${logProbability.toFixed(2)} (p ${percent(Math.exp(logProbability))}) the move policy gives it`,
    });
  }
  if (refutation?.source === 'checkmate') {
    terms.push({ term: 'proven-loss', value: -provenLossPenalty(refutation.mateIn), detail: 'a move the opponent mates after comes after every other' });
  }
  return {
    score: round(player.choiceScore(ranked)),
    scale,
    terms: terms.map((t) => ({ ...t, value: round(t.value) })),
    ...(line ? { line } : {}),
    ...(graphPatterns ? { graphPatterns: graphPatterns.map((p) => ({ ...p, term: round(p.term) })) } : {}),
  };
}

/** What the rules made of the move's value, when they set it (a mate, a draw, a repetition), in words. */
function ruledValue(player: MorphPlayer, ranked: RankedMove, refutationSan: string | undefined): string | undefined {
  const contempt = (value: number) => (value === 0.5 ? '' : ` (worth ${value.toFixed(3)} to Morph: contempt)`);
  if (ranked.mateIn !== undefined) return `it begins a mate by checks in ${ranked.mateIn}, whatever the opponent replies`;
  if (ranked.source === 'checkmate') return 'it mates';
  if (ranked.source === 'repetition') return `it returns to a position already seen: a draw the opponent can claim${contempt(ranked.value)}`;
  if (ranked.source !== 'patterns') return `a draw by the rules (${ranked.source})${contempt(ranked.value)}`;
  const refutation = ranked.refutation;
  if (refutation === undefined || refutation.source === 'patterns') return undefined;
  if (refutation.source === 'checkmate') {
    return `the opponent mates${refutation.mateIn !== undefined && refutation.mateIn > 1 ? ` by checks in ${refutation.mateIn}` : ''}, starting with ${refutationSan}`;
  }
  if (refutation.source === 'threefold') return `the opponent's ${refutationSan} repeats a position: a draw${contempt(player.drawValue)}`;
  return `the opponent's ${refutationSan} draws by the rules (${refutation.source})`;
}

/** Where a value on the paper's scale came from. */
function valueDetail(ranked: RankedMove, refutationSan: string | undefined): string {
  if (ranked.refutation) return `after the opponent's best reply ${refutationSan}, by the patterns there`;
  return 'the patterns matched after the move, combined as below';
}

/**
 * The log-odds of the value read at the end of the line, in parts: the fitted piece values', the square values',
 * the relation terms', and the material pattern's own weight blended in (or, without fitted values, the pattern's weight alone).
 */
function materialTerms(player: MorphPlayer, end: LineEnd): ScoreTerm[] {
  const { board, evaluation } = end.position;
  const sign = end.forMover ? 1 : -1;
  const difference = materialDifference(board, new Int8Array(5)).map((d) => sign * d);
  const record = evaluation.used[0];
  const pattern = record && `#${record.id} material w=${record.weight.toFixed(3)} updates=${record.updates}`;
  const blend = evaluation.blend;
  if (blend === undefined) {
    return [{
      term: 'material-pattern',
      value: sign * scaledValue(evaluation.value, 'log-odds'),
      detail: pattern ? `${pattern} (${differenceText(difference)})` : `no mature pattern of ${differenceText(difference)}: counted as a draw`,
    }];
  }
  const values = player.pieceValuesInPlay;
  const pieceValues = values ? MATERIAL_PIECES.filter((_, i) => difference[i] !== 0).map((p) => `${p} ${values[MATERIAL_PIECES.indexOf(p)].toFixed(3)}`) : [];
  const terms: ScoreTerm[] = [{
    term: 'material',
    value: sign * blend.material,
    detail: `${differenceText(difference)}${pieceValues.length ? ` by the fitted piece values ${pieceValues.join(', ')}` : ''}`,
  }];
  if (blend.squares !== 0 || player.options.policy?.squares !== undefined) {
    terms.push({ term: 'squares', value: sign * blend.squares, detail: "where the pieces stand, by the policy's square values" });
  }
  if (blend.relations !== 0) {
    terms.push({ term: 'relations', value: sign * blend.relations, detail: "the smallest graph patterns (each piece's safety, each attack and defence), by the database's relation terms" });
  }
  if (record !== undefined) {
    terms.push({
      term: 'material-pattern',
      value: sign * (scaledValue(evaluation.value, 'log-odds') - scaledValue(blend.fitted, 'log-odds')),
      detail: `${pattern}, blended with the fitted weight ${blend.fitted.toFixed(4)} as ${blend.prior} updates`,
    });
  }
  return terms;
}

/**
 * The position in the move's look whose value is the move's: valued again as the ranking valued it, and the first
 * such position a line of moves from the move reaches (every position of a line is valued, but for the first reply
 * where the look answers a threat). Undefined when no valued position has the move's value.
 */
function findLineEnd(player: MorphPlayer, history: GameHistory, ranked: RankedMove): LineEnd | undefined {
  const valued = player.positionsValuedFor(history, ranked.move);
  const mover = history.board.turn;
  const valueForMover = (p: ValuedPosition) => (p.board.turn !== mover ? p.evaluation.value : 1 - p.evaluation.value);
  const known = new Set<number>();
  const candidates: ValuedPosition[] = [];
  for (const position of valued) {
    const key = positionKey(position.board);
    if (!known.has(key) && Math.abs(valueForMover(position) - ranked.value) <= SAME_VALUE) candidates.push(position);
    known.add(key);
  }
  if (candidates.length === 0) return undefined;
  const start = afterMove(history.board, ranked.move);
  for (const position of candidates) {
    const ucis = lineTo(start, position.board, known);
    if (ucis !== undefined) return { position, forMover: position.board.turn !== mover, ucis };
  }
  return { position: candidates[0], forMover: candidates[0].board.turn !== mover };
}

/**
 * The shortest line of legal moves from `start` to `end` through positions in `known` (the first move's position
 * excepted), within LINE_DEPTH moves and LINE_BUDGET positions; undefined when none is found.
 */
function lineTo(start: Board, end: Board, known: ReadonlySet<number>): string[] | undefined {
  const target = positionKey(end);
  if (positionKey(start) === target) return [];
  let budget = LINE_BUDGET;
  const line: string[] = [];
  const search = (board: Board, depth: number, limit: number): boolean => {
    const next = cloneBoard(board);
    for (const move of generateLegalMoves(board)) {
      if (--budget < 0) return false;
      applyMove(board, move, next);
      const key = positionKey(next);
      line.push(uciMove(move));
      if (key === target) return true;
      if (depth + 1 < limit && (depth === 0 || known.has(key)) && search(next, depth + 1, limit)) return true;
      line.pop();
    }
    return false;
  };
  for (let limit = 1; limit <= LINE_DEPTH && budget > 0; limit++) if (search(start, 0, limit)) return line;
  return undefined;
}

/** The graph patterns of the move's own position whose terms the player adds (GraphTerms.read), largest first. */
function graphTermPatterns(player: MorphPlayer, history: GameHistory, move: string): { id: number; term: number; description: string }[] {
  const terms = player.options.graphTerms;
  if (terms === undefined) return [];
  const { matches } = player.store.retrieve(buildPositionGraph(afterMove(history.board, move)));
  return terms
    .read(matches)
    .map((record) => ({ id: record.id, term: terms.get(record.id)?.term ?? 0, description: describePattern(record.pattern) }))
    .filter((p) => p.term !== 0)
    .sort((a, b) => Math.abs(b.term) - Math.abs(a.term) || a.id - b.id);
}

function afterMove(board: Board, move: string): Board {
  const compact = generateLegalMoves(board).find((m) => uciMove(m) === move)!;
  const next = cloneBoard(board);
  applyMove(board, compact, next);
  return next;
}

/** A material difference, Morph's pieces minus the opponent's: "N+1 P-2", or "even material". */
function differenceText(difference: ArrayLike<number>): string {
  const parts = MATERIAL_PIECES.flatMap((piece, i) => (difference[i] === 0 ? [] : [`${piece}${difference[i] > 0 ? '+' : ''}${difference[i]}`]));
  return parts.length ? `material ${parts.join(' ')}` : 'even material';
}

const percent = (p: number) => (p >= 0.001 ? `${(p * 100).toFixed(1)}%` : p.toExponential(1));

/** The score's lines of explanationText: the line that set the value, then one line a term. */
function scoreText(explanation: MoveExplanation, score: ExplainedScore): string[] {
  const how = score.scale === 'log-odds' ? "the value's log-odds" : 'the value';
  const lines = [`  score ${signed(score.score, 4)} (what Morph ranks moves by: ${how}${score.terms.length > 1 ? ' and its other terms' : ''}), the sum of:`];
  const line = score.line;
  if (line?.moves) {
    lines.push(line.moves.length === 0
      ? `  line: ${explanation.san}, valued where it stands (no capture or threat after it changes that)`
      : `  line: ${explanation.san} ${line.moves.join(' ')}, valued where it ends`);
  } else if (line) lines.push(`  line: ended in ${line.fen} (the moves to it were not found)`);
  const width = Math.max(...score.terms.map((t) => t.term.length));
  for (const term of score.terms) lines.push(`    ${term.term.padEnd(width)} ${signed(term.value, 4).padStart(10)}  ${term.detail}`);
  return lines;
}
