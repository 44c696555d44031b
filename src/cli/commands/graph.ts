/** `morph graph`: a position's attack/defend graph, as JSON or as a board diagram with the edge list. */
import type { Command } from 'commander';
import { checkFen } from '../../chess/fen.ts';
import { boardFromFen } from '../../chess/board.ts';
import { buildPositionGraph } from '../../graph/positionGraph.ts';
import { graphToJson, graphToText, type GraphJson } from '../../graph/graphJson.ts';
import { badInput, BAD_INPUT, MorphError } from '../../util/errors.ts';
import { action, printLine, reportError } from '../run.ts';
import { readInputLines } from '../../util/inputLines.ts';

export function positionGraphJson(fen: string): GraphJson {
  const checked = checkFen(fen);
  return graphToJson(buildPositionGraph(boardFromFen(checked)), checked);
}

export function registerGraphCommand(program: Command): void {
  program
    .command('graph')
    .description("print a position's graph: pieces and king-neighbour squares, direct/indirect/discovered edges")
    .option('--fen <fen>', 'the position, as FEN')
    .option('--input <file>', 'a file with one FEN per line (- for stdin); one result per line')
    .option('--json', 'JSON output with real squares and colours')
    .action(
      action((opts: { fen?: string; input?: string; json?: boolean }) => {
        if (!opts.fen === !opts.input) throw badInput('give exactly one of --fen FEN or --input FILE');
        const show = (json: GraphJson) => printLine(opts.json ? JSON.stringify(json) : graphToText(json) + '\n');
        if (opts.fen) {
          show(positionGraphJson(opts.fen));
          return;
        }
        let failures = 0;
        for (const line of readInputLines(opts.input!)) {
          try {
            show(positionGraphJson(line.text));
          } catch (error) {
            failures++;
            reportError(new MorphError(`line ${line.number}: ${(error as Error).message}`, BAD_INPUT));
          }
        }
        if (failures) process.exitCode = BAD_INPUT;
      }),
    );
}
