/**
 * A small Morph database with known contents, for the inspect, report and export tests: material patterns with
 * the paper's Table 1 statistics, one hand-made graph pattern using every kind of square designation, graph
 * patterns cut from real positions (so the hierarchy has links), and a run of recorded games.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { KNIGHT, KING, PAWN, QUEEN, ROOK, parseSquare } from '../../src/chess/board.ts';
import { pieceLabel, SQUARE_LABEL, EDGE_DIRECT, EDGE_INDIRECT } from '../../src/graph/labels.ts';
import { DESIG_NONE, exactDesig, fileDesig, rankDesig } from '../../src/pattern/designation.ts';
import { materialPattern, type GraphPattern } from '../../src/pattern/pattern.ts';
import { PatternStore } from '../../src/store/patternStore.ts';
import { finishRun, startRun } from '../../src/store/runs.ts';
import { recordGame, type GameResult } from '../../src/store/games.ts';
import { setMeta } from '../../src/store/meta.ts';
import { DEFAULT_CONFIG, saveConfig } from '../../src/learn/config.ts';
import { Random } from '../../src/util/random.ts';
import { fixturePositions, graphOf, samplePattern } from './patternSamples.ts';

export const MORPH_BIN = fileURLToPath(new URL('../../bin/morph.js', import.meta.url));

/** Rows of the paper's Table 1: P N B R Q, weight, updates, variance, age (games_played is 106). */
export const TABLE_1: [number[], number, number, number, number][] = [
  [[0, 0, 0, 0, 0], 0.455, 2485, 240.2, 106],
  [[0, 0, -1, 0, 0], 0.094, 556, 7.53, 86],
  [[0, 1, 0, 0, 0], 0.91, 679, 23.59, 101],
  [[0, -1, 0, 0, 0], 0.102, 588, 17.96, 101],
  [[1, 0, 0, 0, 0], 0.731, 969, 22.96, 105],
  [[0, 0, 0, 0, -1], 0.085, 642, 3.12, 105],
  [[0, 0, -1, 1, 0], 0.894, 10, 0.03, 55],
];
export const GAMES_PLAYED = 106;

/**
 * Nodes: #0 moved N on f3, #1 toMove Q anywhere, #2 toMove P on rank 7, #3 moved R on the d-file, #4 moved K on
 * g1, #5 the empty square g2. Edges: N->Q direct (attack), R->P indirect (attack), K->g2 direct (square),
 * N->K direct (defend).
 */
export const HAND_MADE: GraphPattern = {
  kind: 'graph',
  labels: [
    pieceLabel('moved', KNIGHT), pieceLabel('toMove', QUEEN), pieceLabel('toMove', PAWN), pieceLabel('moved', ROOK),
    pieceLabel('moved', KING), SQUARE_LABEL,
  ],
  desigs: [exactDesig(parseSquare('f3')), DESIG_NONE, rankDesig(6), fileDesig(3), exactDesig(parseSquare('g1')), exactDesig(parseSquare('g2'))],
  edges: [[0, 1, EDGE_DIRECT], [3, 2, EDGE_INDIRECT], [4, 5, EDGE_DIRECT], [0, 4, EDGE_DIRECT]],
};

/** Two generalisations of HAND_MADE (its parents in the hierarchy) and one specialisation (its child). */
const HAND_MADE_RELATIVES: GraphPattern[] = [
  { kind: 'graph', labels: [HAND_MADE.labels[0], HAND_MADE.labels[1]], desigs: [HAND_MADE.desigs[0], DESIG_NONE], edges: [[0, 1, EDGE_DIRECT]] },
  { kind: 'graph', labels: [HAND_MADE.labels[4], SQUARE_LABEL], desigs: [HAND_MADE.desigs[4], HAND_MADE.desigs[5]], edges: [[0, 1, EDGE_DIRECT]] },
  {
    kind: 'graph',
    labels: [...HAND_MADE.labels, pieceLabel('toMove', KING)],
    desigs: [...HAND_MADE.desigs, DESIG_NONE],
    edges: [...HAND_MADE.edges, [1, 6, EDGE_DIRECT]],
  },
];

export interface SampleDatabase {
  path: string;
  games: { score: number; finalMaterial: number; patterns: number }[];
  handMadeId: number;
  materialIds: number[];
  graphCount: number;
  materialCount: number;
}

/** Morph's score in game i (1-based): a fixed, uneven sequence so the averages are not trivial. */
const scoreOf = (i: number): number => [1, 0.5, 0, 0.5, 0.5, 1, 0][i % 7];

export function buildSampleDatabase(path: string, gameCount = 25): SampleDatabase {
  const store = PatternStore.open(path);
  try {
    const rng = new Random(20240611);
    const materialIds: number[] = [];
    let handMadeId = 0;
    const games: SampleDatabase['games'] = [];
    store.transaction(() => {
      for (const [diff, weight, updates, variance, age] of TABLE_1) {
        const { record } = store.insert(materialPattern(diff), 'material', GAMES_PLAYED - age, { weight, updates, variance, uses: updates });
        materialIds.push(record.id);
      }
      handMadeId = store.insert(HAND_MADE, 'manual', 3, { weight: 0.88, updates: 40, variance: 1.5, uses: 12, lastUsedGame: 100 }).record.id;
      HAND_MADE_RELATIVES.forEach((pattern, i) => store.insert(pattern, 'manual', 4, { weight: 0.3 + 0.2 * i, updates: 30 + i }));
      const positions = fixturePositions();
      for (let i = 0; i < 60; i++) {
        const graph = graphOf(positions[rng.int(positions.length)]);
        store.insert(samplePattern(graph, rng, 4), i % 2 ? 'forward' : 'reverse', rng.int(GAMES_PLAYED), {
          weight: rng.next(),
          updates: rng.int(200),
          variance: rng.next() * 5,
          uses: rng.int(50),
        });
      }
      const runId = startRun(store.db, { opponent: 'random', seed: 1, config: DEFAULT_CONFIG, firstGame: 1 });
      for (let i = 1; i <= gameCount; i++) {
        const score = scoreOf(i);
        const morphColor = i % 2 ? 'w' : 'b';
        const whiteScore = morphColor === 'w' ? score : 1 - score;
        const result: GameResult = whiteScore === 1 ? '1-0' : whiteScore === 0 ? '0-1' : '1/2-1/2';
        const game = { score, finalMaterial: (i % 9) - 4, patterns: 40 + 3 * i };
        games.push(game);
        recordGame(store.db, {
          runId, morphColor, opponent: 'random', result, reason: 'test', plies: 40 + i, finalMaterial: game.finalMaterial, patterns: game.patterns,
        });
      }
      finishRun(store.db, runId, { stopReason: 'games-done' });
      setMeta(store.db, 'games_played', GAMES_PLAYED);
      setMeta(store.db, 'temperature', 0.8);
      saveConfig(store.db, DEFAULT_CONFIG);
    });
    const counts = store.db.prepare('SELECT kind, count(*) AS n FROM patterns GROUP BY kind').all() as { kind: string; n: number }[];
    return {
      path,
      games,
      handMadeId,
      materialIds,
      graphCount: counts.find((c) => c.kind === 'graph')?.n ?? 0,
      materialCount: counts.find((c) => c.kind === 'material')?.n ?? 0,
    };
  } finally {
    store.close();
  }
}

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `morph ARGS…` to completion. */
export function morph(args: string[], env: NodeJS.ProcessEnv = process.env): CliResult {
  const result = spawnSync(process.execPath, [MORPH_BIN, ...args], { encoding: 'utf8', env, timeout: 60_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/**
 * A pawn up and to move, with a stalemate to hand (Kf7 and Kf8 stalemate Black; materialFit.test.ts checks it with
 * chess.js), for the contempt tests.
 */
export const PAWN_UP_STALEMATE_FEN = '7k/p3K3/P5P1/8/8/8/8/8 w - - 0 1';

/** A database that knows only that a pawn up is worth .7 and a pawn down .3 (200 updates each). */
export function buildPawnUpDatabase(path: string): void {
  const store = PatternStore.open(path);
  store.insert(materialPattern([1, 0, 0, 0, 0]), 'manual', 0, { weight: 0.7, updates: 200 });
  store.insert(materialPattern([-1, 0, 0, 0, 0]), 'manual', 0, { weight: 0.3, updates: 200 });
  store.close();
}
