/**
 * A GraphML writer for graphology graphs.
 *
 * Written here because the published graphology-graphml (0.5.x) has only a parser: its writer is still an open
 * pull request upstream. The output follows the GraphML primer (keys declared with attr.name / attr.type, one
 * <data> per attribute) and is checked by re-reading it with graphology-graphml's parser in the tests.
 */
import type { AbstractGraph, Attributes } from 'graphology-types';

type KeyType = 'boolean' | 'int' | 'long' | 'double' | 'string';
type Domain = 'graph' | 'node' | 'edge';

interface KeyDeclaration {
  id: string;
  domain: Domain;
  name: string;
  type: KeyType;
}

function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);
}

/** The narrowest GraphML type that holds every value (objects and arrays are written as JSON strings). */
function typeOf(values: unknown[]): KeyType {
  if (values.every((v) => typeof v === 'boolean')) return 'boolean';
  if (values.every((v) => typeof v === 'number' && Number.isInteger(v))) {
    return values.every((v) => Math.abs(v as number) <= 0x7fffffff) ? 'int' : 'long';
  }
  if (values.every((v) => typeof v === 'number')) return 'double';
  return 'string';
}

function valueText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** Attribute names of one domain with the values seen (null and undefined values are left out, as GraphML allows). */
function collect(domain: Domain, entries: Iterable<Attributes>, keys: KeyDeclaration[]): Map<string, KeyDeclaration> {
  const values = new Map<string, unknown[]>();
  for (const attributes of entries) {
    for (const [name, value] of Object.entries(attributes)) {
      if (value === null || value === undefined) continue;
      if (!values.has(name)) values.set(name, []);
      values.get(name)!.push(value);
    }
  }
  const byName = new Map<string, KeyDeclaration>();
  for (const [name, seen] of values) {
    const key: KeyDeclaration = { id: `${domain[0]}${byName.size}`, domain, name, type: typeOf(seen) };
    byName.set(name, key);
    keys.push(key);
  }
  return byName;
}

function dataElements(attributes: Attributes, keys: Map<string, KeyDeclaration>, indent: string): string[] {
  const lines: string[] = [];
  for (const [name, value] of Object.entries(attributes)) {
    if (value === null || value === undefined) continue;
    lines.push(`${indent}<data key="${keys.get(name)!.id}">${escapeXml(valueText(value))}</data>`);
  }
  return lines;
}

export function writeGraphml(graph: AbstractGraph): string {
  const keys: KeyDeclaration[] = [];
  const graphKeys = collect('graph', [graph.getAttributes()], keys);
  const nodeAttributes: Attributes[] = [];
  graph.forEachNode((_key, attributes) => void nodeAttributes.push(attributes));
  const nodeKeys = collect('node', nodeAttributes, keys);
  const edgeAttributes: Attributes[] = [];
  graph.forEachEdge((_key, attributes) => void edgeAttributes.push(attributes));
  const edgeKeys = collect('edge', edgeAttributes, keys);

  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<graphml xmlns="http://graphml.graphdrawing.org/xmlns" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" ' +
      'xsi:schemaLocation="http://graphml.graphdrawing.org/xmlns http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd">',
  ];
  for (const key of keys) {
    lines.push(`  <key id="${key.id}" for="${key.domain}" attr.name="${escapeXml(key.name)}" attr.type="${key.type}"/>`);
  }
  // A mixed graph defaults to undirected and marks its directed edges: readers (graphology-graphml among them)
  // honour directed="true" more reliably than directed="false".
  const edgeDefault = graph.type === 'directed' ? 'directed' : 'undirected';
  lines.push(`  <graph id="G" edgedefault="${edgeDefault}">`);
  lines.push(...dataElements(graph.getAttributes(), graphKeys, '    '));
  graph.forEachNode((node, attributes) => {
    const data = dataElements(attributes, nodeKeys, '      ');
    if (!data.length) lines.push(`    <node id="${escapeXml(node)}"/>`);
    else lines.push(`    <node id="${escapeXml(node)}">`, ...data, '    </node>');
  });
  graph.forEachEdge((edge, attributes, source, target, _sa, _ta, undirected) => {
    const direction = undirected === (edgeDefault === 'undirected') ? '' : ` directed="${!undirected}"`;
    const open = `    <edge id="${escapeXml(edge)}" source="${escapeXml(source)}" target="${escapeXml(target)}"${direction}`;
    const data = dataElements(attributes, edgeKeys, '      ');
    if (!data.length) lines.push(`${open}/>`);
    else lines.push(`${open}>`, ...data, '    </edge>');
  });
  lines.push('  </graph>', '</graphml>', '');
  return lines.join('\n');
}
