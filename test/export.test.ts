import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DirectedGraph, MultiGraph } from 'graphology';
import { parse as parseGexf } from 'graphology-gexf';
import { parse as parseGraphml } from 'graphology-graphml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeGraphml } from '../src/inspect/graphml.ts';
import { readHierarchyGraph, writeHierarchy } from '../src/inspect/exportHierarchy.ts';
import { withSnapshot } from '../src/inspect/source.ts';
import { openMorphDatabase } from '../src/store/database.ts';
import { TABLE_1, buildSampleDatabase, morph, type SampleDatabase } from './helpers/sampleDatabase.ts';

const tempDir = mkdtempSync(join(tmpdir(), 'morph-export-'));
let sample: SampleDatabase;
let links: number;
let weights: Map<string, number>;

beforeAll(() => {
  sample = buildSampleDatabase(join(tempDir, 'sample.db'), 5);
  const db = openMorphDatabase(sample.path, { readonly: true });
  try {
    links = db.prepare('SELECT count(*) FROM links').pluck().get() as number;
    weights = new Map((db.prepare('SELECT id, weight FROM patterns').raw().all() as [number, number][]).map(([id, w]) => [String(id), w]));
  } finally {
    db.close();
  }
});
afterAll(() => rmSync(tempDir, { recursive: true, force: true }));

describe('morph export', () => {
  it('writes GEXF and GraphML that re-import to the same nodes and edges', () => {
    expect(links).toBeGreaterThan(0);
    for (const format of ['gexf', 'graphml'] as const) {
      const file = join(tempDir, `hierarchy.${format}`);
      const result = morph(['export', '--db', sample.path, '--format', format, '--out', file, '--json']);
      expect(result.status).toBe(0);
      expect(JSON.parse(result.stdout)).toEqual({ file, format, nodes: sample.graphCount, edges: links });
      const text = readFileSync(file, 'utf8');
      const graph = format === 'gexf' ? parseGexf(DirectedGraph, text) : parseGraphml(DirectedGraph, text);
      expect(graph.order).toBe(sample.graphCount);
      expect(graph.size).toBe(links);
      // The statistics come back as typed attributes, and edges point from the general to the specific pattern.
      graph.forEachNode((node, attributes) => {
        expect(attributes.weight).toBeCloseTo(weights.get(node)!, 12);
        expect(attributes.kind).toBe('graph');
        expect(typeof attributes.updates).toBe('number');
      });
      graph.forEachEdge((_edge, _attributes, parent, child) => {
        expect(graph.getNodeAttribute(parent, 'size')).toBeLessThanOrEqual(graph.getNodeAttribute(child, 'size') as number);
      });
      expect(graph.getNodeAttribute(String(sample.handMadeId), 'label')).toContain('moved N on f3 -direct-> toMove Q');
    }
  });

  it('writes to standard output and can include the material patterns', () => {
    const result = morph(['export', '--db', sample.path, '--format', 'graphml', '--kind', 'all']);
    expect(result.status).toBe(0);
    const graph = parseGraphml(DirectedGraph, result.stdout);
    expect(graph.order).toBe(sample.graphCount + TABLE_1.length);
    expect(graph.size).toBe(links);
    const materials = withSnapshot(sample.path, ({ db }) => readHierarchyGraph(db, 'material'));
    expect(materials.order).toBe(TABLE_1.length);
    expect(parseGexf(DirectedGraph, writeHierarchy(materials, 'gexf'), { respectInputGraphType: true }).order).toBe(TABLE_1.length);
  });

  it('rejects an unknown format in one line with exit code 2', () => {
    const result = morph(['export', '--db', sample.path, '--format', 'dot']);
    expect(result.status).toBe(2);
    expect(result.stderr).toBe('morph: --format must be one of gexf, graphml, got "dot"\n');
  });
});

describe('writeGraphml', () => {
  it('declares typed keys and round-trips attributes through graphology-graphml', () => {
    const graph = new DirectedGraph();
    graph.setAttribute('title', 'a <test> & "quotes"');
    graph.addNode('a', { count: 3, ratio: 0.25, flag: true, name: 'x < y', list: [1, 2] });
    graph.addNode('b', { count: 4, ratio: 1, flag: false, name: 'plain', missing: null });
    graph.addNode('c');
    graph.addEdgeWithKey('a->b', 'a', 'b', { kind: 'direct', strength: 2 });
    graph.addEdgeWithKey('b->c', 'b', 'c');
    const text = writeGraphml(graph);
    expect(text).toContain('attr.name="count" attr.type="int"');
    expect(text).toContain('attr.name="ratio" attr.type="double"');
    expect(text).toContain('attr.name="flag" attr.type="boolean"');
    expect(text).not.toContain('missing');
    const back = parseGraphml(DirectedGraph, text);
    expect(back.order).toBe(3);
    expect(back.size).toBe(2);
    expect(back.getNodeAttributes('a')).toMatchObject({ count: 3, ratio: 0.25, flag: true, name: 'x < y', list: '[1,2]' });
    expect(back.getNodeAttributes('b')).toMatchObject({ count: 4, ratio: 1, flag: false });
    expect(back.getEdgeAttributes(back.edge('a', 'b'))).toMatchObject({ kind: 'direct', strength: 2 });
    expect(back.getAttribute('title')).toBe('a <test> & "quotes"');
  });

  it('writes undirected and mixed graphs with the right edge directions', () => {
    const graph = new MultiGraph();
    graph.addNode('1');
    graph.addNode('2');
    graph.addUndirectedEdge('1', '2');
    graph.addDirectedEdge('2', '1');
    const back = parseGraphml(MultiGraph, writeGraphml(graph));
    expect(back.size).toBe(2);
    expect(back.directedSize).toBe(1);
    expect(back.undirectedSize).toBe(1);
    expect(back.hasDirectedEdge('2', '1')).toBe(true);
  });
});
