/** A pattern as a text board diagram with its node and edge lists (see patternLayout.ts for the conventions). */
import { describeMaterial, type Pattern } from '../pattern/pattern.ts';
import { EDGE_MEANINGS, MOVE_PATTERN_LEGEND, NORMAL_FORM_LEGEND, layoutPattern, type DrawnNode, type EdgeRelation } from './patternLayout.ts';

const RELATION_VERBS: Record<EdgeRelation, string> = { attack: 'attacks', defend: 'defends', square: 'covers', move: 'moves to' };

/** With `movePattern`, a move pattern's drawing: its destination marked and the legend about the mover. */
export function patternDiagramText(pattern: Pattern, movePattern = false): string {
  if (pattern.kind === 'material') {
    return `Material: ${describeMaterial(pattern.diff)}. P N B R Q difference ${pattern.diff.join(' ')}.`;
  }
  const { nodes, edges } = layoutPattern(pattern, movePattern);
  const onSquare = new Map<number, DrawnNode>();
  const onRank = new Map<number, DrawnNode[]>();
  for (const node of nodes) {
    if (node.place.kind === 'square') onSquare.set(node.place.square, node);
    if (node.place.kind === 'rank') onRank.set(node.place.rank, [...(onRank.get(node.place.rank) ?? []), node]);
  }
  const lines = [movePattern ? MOVE_PATTERN_LEGEND : NORMAL_FORM_LEGEND];
  for (let rank = 7; rank >= 0; rank--) {
    let row = `  ${rank + 1} `;
    for (let file = 0; file < 8; file++) row += ' ' + (onSquare.get(rank * 8 + file)?.letter ?? '.');
    const ranked = onRank.get(rank);
    if (ranked) row += `    <- rank ${rank + 1}: ${ranked.map((n) => `#${n.index} ${n.letter}`).join(', ')}`;
    lines.push(row);
  }
  lines.push('     a b c d e f g h');
  const elsewhere = nodes.filter((node) => node.place.kind === 'file' || node.place.kind === 'anywhere');
  if (elsewhere.length) {
    lines.push(
      `  not on the board: ${elsewhere
        .map((n) => `#${n.index} ${n.letter} (${n.place.kind === 'file' ? `${String.fromCharCode(97 + n.place.file)}-file` : 'any square'})`)
        .join(', ')}`,
    );
  }
  lines.push(`Nodes (${nodes.length}):`, ...nodes.map((node) => `  ${node.text}`));
  lines.push(`Edges (${edges.length}):`);
  for (const edge of edges) {
    const from = nodes[edge.from];
    const to = nodes[edge.to];
    lines.push(`  #${from.index} ${from.letter} -> #${to.index} ${to.letter}  ${edge.type}: ${RELATION_VERBS[edge.relation]}` +
      (edge.type === 'direct' ? '' : `, ${EDGE_MEANINGS[edge.type]}`));
  }
  return lines.join('\n');
}
