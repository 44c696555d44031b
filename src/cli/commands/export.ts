/** `morph export`: the pattern hierarchy as GEXF or GraphML, for Gephi and similar tools. Read-only. */
import type { Command } from 'commander';
import { EXPORT_FORMATS, GEXF_VERSIONS, readHierarchyGraph, writeHierarchy, type ExportFormat, type ExportKinds, type GexfVersion } from '../../inspect/exportHierarchy.ts';
import { withSnapshot } from '../../inspect/source.ts';
import { badInput } from '../../util/errors.ts';
import { action, printLine } from '../run.ts';
import { writeTextFile } from './inspect.ts';

interface ExportOptions {
  db?: string;
  format: string;
  out?: string;
  kind: string;
  gexfVersion: string;
  json?: boolean;
}

export function registerExportCommand(program: Command): void {
  program
    .command('export')
    .description('export the pattern hierarchy (parent -> child links, statistics as attributes) as GEXF or GraphML')
    .requiredOption('--format <format>', EXPORT_FORMATS.join(' | '))
    .option('--db <file>', 'pattern database (default: data/morph.db in the checkout, or $MORPH_DB)')
    .option('--out <file>', 'write to this file (default: standard output)')
    .option('--kind <kind>', 'graph | material | all: which patterns become nodes (material ones have no links)', 'graph')
    .option('--gexf-version <version>', `GEXF version: ${GEXF_VERSIONS.join(' | ')} (1.2 is what networkx reads)`, '1.2')
    .option('--json', 'with --out: print {"file","format","nodes","edges"} as JSON')
    .action(
      action((opts: ExportOptions) => {
        if (!EXPORT_FORMATS.includes(opts.format as ExportFormat)) {
          throw badInput(`--format must be one of ${EXPORT_FORMATS.join(', ')}, got "${opts.format}"`);
        }
        if (!['graph', 'material', 'all'].includes(opts.kind)) throw badInput(`--kind must be graph, material or all, got "${opts.kind}"`);
        if (!GEXF_VERSIONS.includes(opts.gexfVersion as GexfVersion)) {
          throw badInput(`--gexf-version must be one of ${GEXF_VERSIONS.join(', ')}, got "${opts.gexfVersion}"`);
        }
        const graph = withSnapshot(opts.db, ({ db }) => readHierarchyGraph(db, opts.kind as ExportKinds));
        const text = writeHierarchy(graph, opts.format as ExportFormat, opts.gexfVersion as GexfVersion);
        if (!opts.out) {
          process.stdout.write(text.endsWith('\n') ? text : text + '\n');
          return;
        }
        writeTextFile(opts.out, text);
        const info = { file: opts.out, format: opts.format, nodes: graph.order, edges: graph.size };
        printLine(opts.json ? JSON.stringify(info) : `wrote ${info.file}: ${info.nodes} nodes, ${info.edges} edges (${info.format})`);
      }),
    );
}
