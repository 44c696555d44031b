/**
 * The pattern hierarchy as a graph file for Gephi, Cytoscape, yEd and the like: one node per pattern (with its
 * statistics as attributes), one edge per stored link, from the more general pattern (parent) to the more
 * specific one (child). GEXF is written by graphology-gexf; GraphML by graphml.ts (see there why).
 */
import { DirectedGraph } from 'graphology';
import { write as writeGexfDocument } from 'graphology-gexf';
import { getMeta } from '../store/meta.ts';
import { type MorphDatabase } from '../store/database.ts';
import { describePattern, patternFromJson } from '../pattern/pattern.ts';
import { MorphError } from '../util/errors.ts';
import { writeGraphml } from './graphml.ts';

export const EXPORT_FORMATS = ['gexf', 'graphml'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
/**
 * GEXF 1.2 by default: Gephi reads both, but networkx's read_gexf (2.8 and 3.x) finds no graph in a 1.3 file, and
 * 1.2 carries everything Morph writes (no dynamics, no viz).
 */
export const GEXF_VERSIONS = ['1.2', '1.3'] as const;
export type GexfVersion = (typeof GEXF_VERSIONS)[number];
export type ExportKinds = 'graph' | 'material' | 'all';

export interface PatternNodeAttributes {
  label: string;
  kind: 'graph' | 'material';
  size: number;
  weight: number;
  updates: number;
  variance: number;
  uses: number;
  age: number;
  extremeness: number;
  origin: string;
  createdGame: number;
  /** -1 when never used, so the attribute has one type in every node. */
  lastUsedGame: number;
  /** The pattern itself: graphology's serialised graph as JSON, normal-form squares. */
  pattern: string;
}

/**
 * Reads the hierarchy into a graphology graph (call inside one snapshot). Material patterns are not part of the
 * subpattern hierarchy (they have no links), so by default only graph patterns are exported.
 */
export function readHierarchyGraph(db: MorphDatabase, kinds: ExportKinds = 'graph'): DirectedGraph<PatternNodeAttributes> {
  const graph = new DirectedGraph<PatternNodeAttributes>();
  // creator and description are the graph metadata GEXF defines; GraphML writes them as graph data.
  graph.setAttribute('creator', 'Morph');
  graph.setAttribute(
    'description',
    `Morph pattern hierarchy after ${getMeta(db, 'games_played') ?? 0} games: edges go from the more general pattern to ` +
      'the more specific one; squares are normal-form squares (the side that just moved is White)',
  );
  const where = kinds === 'all' ? '' : `WHERE kind = '${kinds === 'graph' ? 'graph' : 'material'}'`;
  const rows = db
    .prepare(
      `SELECT id, kind, size, weight, updates, variance, uses, age, origin, created_game, last_used_game, body
       FROM pattern_stats ${where} ORDER BY id`,
    )
    .all() as {
    id: number; kind: 'graph' | 'material'; size: number; weight: number; updates: number; variance: number; uses: number;
    age: number; origin: string; created_game: number; last_used_game: number | null; body: string;
  }[];
  for (const row of rows) {
    let label: string;
    try {
      label = describePattern(patternFromJson(row.body));
    } catch (error) {
      throw new MorphError(`pattern ${row.id} is unreadable: ${(error as Error).message}`, 2);
    }
    graph.addNode(String(row.id), {
      label: `${row.id}: ${label}`,
      kind: row.kind,
      size: row.size,
      weight: row.weight,
      updates: row.updates,
      variance: row.variance,
      uses: row.uses,
      age: row.age,
      extremeness: Math.abs(row.weight - 0.5),
      origin: row.origin,
      createdGame: row.created_game,
      lastUsedGame: row.last_used_game ?? -1,
      pattern: row.body,
    });
  }
  const links = db.prepare('SELECT parent, child FROM links ORDER BY parent, child').raw().all() as [number, number][];
  for (const [parent, child] of links) {
    // Both ends exist unless the export is limited to one kind (links only join graph patterns).
    if (graph.hasNode(String(parent)) && graph.hasNode(String(child))) {
      graph.addDirectedEdgeWithKey(`${parent}-${child}`, String(parent), String(child));
    }
  }
  return graph;
}

export function writeHierarchy(
  graph: DirectedGraph<PatternNodeAttributes>,
  format: ExportFormat,
  gexfVersion: GexfVersion = '1.2',
): string {
  if (format === 'graphml') return writeGraphml(graph);
  return writeGexfDocument(graph, {
    version: gexfVersion,
    formatNode: (_key, attributes) => {
      const { label, ...rest } = attributes as PatternNodeAttributes;
      return { label, attributes: rest };
    },
    formatEdge: () => ({}),
  });
}
