/** A PGN file cut into its games' texts, each parsed later on its own (chess.js), so one bad game costs only itself. */

/** One game's text cut out of a PGN file. */
export interface PgnGameText {
  /** 1-based position of the game in the file. */
  number: number;
  /** 1-based line where the game starts. */
  line: number;
  text: string;
}

const TERMINATION = /(?:^|\s)(?:1-0|0-1|1\/2-1\/2|\*)\s*$/;

/** Whether a game's text ends with its termination marker (a game cut short, by a killed writer say, does not). */
export const endsWithTermination = (text: string): boolean => TERMINATION.test(text);

/**
 * Splits a PGN file into games. A game ends at its termination marker (1-0, 0-1, 1/2-1/2 or *) outside
 * comments and variations, or where a tag pair follows movetext (a game whose marker is missing). Brace
 * comments may span lines (a line inside one that starts with "[" is not a tag); ";" comments run to the end of
 * their line; "%" lines are escapes and skipped. Blank-line layout does not matter.
 */
export function splitPgnGames(content: string): PgnGameText[] {
  const games: PgnGameText[] = [];
  let lines: string[] = [];
  let startLine = 0;
  let hasMovetext = false;
  let inComment = false;
  let variationDepth = 0;
  const flush = () => {
    if (lines.some((l) => l.trim() !== '')) games.push({ number: games.length + 1, line: startLine, text: lines.join('\n').trim() + '\n' });
    lines = [];
    hasMovetext = false;
    inComment = false;
    variationDepth = 0;
  };
  content
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .forEach((raw, index) => {
      const trimmed = raw.trim();
      if (!inComment && trimmed.startsWith('%')) return;
      if (trimmed === '' && lines.length === 0) return;
      const isTag = !inComment && variationDepth === 0 && trimmed.startsWith('[');
      if (isTag && hasMovetext) flush();
      if (lines.length === 0) startLine = index + 1;
      lines.push(raw);
      if (isTag || trimmed === '') return;
      // Movetext: follow comments and variations so that only a top-level marker ends the game.
      let topLevel = '';
      for (const ch of raw) {
        if (inComment) {
          if (ch === '}') inComment = false;
          continue;
        }
        if (ch === '{') inComment = true;
        else if (ch === ';') break;
        else if (ch === '(') variationDepth++;
        else if (ch === ')') variationDepth = Math.max(0, variationDepth - 1);
        else if (variationDepth === 0) topLevel += ch;
      }
      hasMovetext = true;
      if (!inComment && variationDepth === 0 && TERMINATION.test(topLevel)) flush();
    });
  flush();
  return games;
}
