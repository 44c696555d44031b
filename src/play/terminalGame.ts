/**
 * A game between a person and Morph, driven one input line at a time: the logic behind `morph play`, kept free
 * of terminal I/O so a test can feed it lines and read what it writes. chess.js reads the person's moves and
 * writes SAN and PGN; how the game ends is the verdict every Morph game uses (chess/gameEnd.ts); Morph chooses
 * its replies from its patterns (one ply).
 */
import { writeFileSync } from 'node:fs';
import { Chess, type Move } from 'chess.js';
import { START_FEN } from '../chess/fen.ts';
import { GameHistory } from '../chess/history.ts';
import type { GameEnd } from '../chess/gameEnd.ts';
import { TIE_TOLERANCE, type MorphPlayer, type RankedMove, type ValueSource } from '../player/morphPlayer.ts';
import { bareKingMove } from '../search/bareKing.ts';
import { windowDependent } from '../search/extensions.ts';
import { uciMove } from '../chess/board.ts';
import { Random } from '../util/random.ts';
import { explainChoice, explanationText } from '../player/explain.ts';

export type Side = 'white' | 'black';
export type GameResult = '1-0' | '0-1' | '1/2-1/2' | '*';

export interface TerminalGameConfig {
  player: MorphPlayer;
  /** The person's colour. */
  humanColor: Side;
  /** A validated FEN to start from (default: the initial position). */
  startFen?: string;
  /** Receives output text: one or more complete lines, without the final newline. */
  write: (text: string) => void;
  /** Where the game is saved, as PGN, whenever the session ends (game over, quit or end of input). */
  autoPgnPath?: string;
  /** Writes a file (replaceable in tests). */
  saveFile?: (path: string, text: string) => void;
  /** The PGN Date header (default: today). */
  date?: Date;
  humanName?: string;
  morphName?: string;
}

type State = 'playing' | 'over' | 'closed';

const END_TEXT: Record<GameEnd, string> = {
  checkmate: 'Checkmate',
  stalemate: 'Stalemate',
  insufficient: 'Draw by insufficient material',
  threefold: 'Draw by threefold repetition',
  'fifty-move': 'Draw by the 50-move rule',
};

const UCI_INPUT = /^([a-h][1-8])([a-h][1-8])([qrbn])?$/;
/** What a SAN move looks like, to tell "illegal move" from "not understood". */
const SAN_INPUT = /^(?:[NBRQK]?[a-h]?[1-8]?x?[a-h][1-8](?:=?[QRBNqrbn])?|O-O(?:-O)?)[+#]?[!?]*$/;

const HELP = [
  'Moves: SAN (e4, Nf3, exd5, O-O, e8=Q) or UCI (e2e4, g1f3, e7e8q).',
  'Commands:',
  '  board       show the board again',
  '  moves       list your legal moves',
  '  hint        what Morph would play in your place, with its values (moves it values alike are equals)',
  '  explain [M] why Morph ranks its last move (or move M, yours to play) where it does: every term of its score',
  '  undo        take back your last move (and Morph\'s reply)',
  '  resign      give up the game',
  '  pgn         print the game as PGN',
  '  save FILE   save the game as PGN',
  '  help        this text',
  '  quit        leave',
].join('\n');

export class TerminalGame {
  private readonly chess: Chess;
  private readonly startFen: string;
  private readonly human: 'w' | 'b';
  private readonly saveFile: (path: string, text: string) => void;
  private state: State = 'playing';
  private resigned = false;
  private autoSaved = false;
  /** The moves played, kept here because chess.js rebuilds its verbose history by replaying the game. */
  private readonly played: Move[] = [];

  constructor(private readonly config: TerminalGameConfig) {
    this.startFen = config.startFen ?? START_FEN;
    this.chess = new Chess(this.startFen);
    this.human = config.humanColor === 'white' ? 'w' : 'b';
    this.saveFile = config.saveFile ?? ((path, text) => writeFileSync(path, text));
  }

  /** The session has ended (quit or end of input): no more input is read. */
  get isClosed(): boolean {
    return this.state === 'closed';
  }

  get isOver(): boolean {
    return this.state === 'over';
  }

  get prompt(): string {
    if (this.state === 'over') return `game over (save FILE, pgn${this.resigned ? '' : ', undo'}, quit)> `;
    return `${this.config.humanColor === 'white' ? 'White' : 'Black'} to move> `;
  }

  /** The moves played so far, in UCI notation. */
  get moves(): string[] {
    return this.played.map((move) => move.lan);
  }

  get fen(): string {
    return this.chess.fen();
  }

  get result(): GameResult {
    if (this.resigned) return this.human === 'w' ? '0-1' : '1-0';
    const end = this.verdict();
    if (end === 'checkmate') return this.chess.turn() === 'w' ? '0-1' : '1-0';
    return end === null ? '*' : '1/2-1/2';
  }

  /** Why the game is over by the rules, or null. */
  private verdict(): GameEnd | null {
    return new GameHistory(this.startFen, this.moves).verdict();
  }

  /** Greets, shows the board and, when Morph has the move, plays it. */
  start(): void {
    const side = this.config.humanColor;
    this.write(`You play ${side === 'white' ? 'White' : 'Black'} against ${this.morphName}. Type help for commands.`);
    if (this.checkGameEnd()) return;
    if (this.chess.turn() !== this.human) {
      this.morphMoves();
      if (this.checkGameEnd()) return;
    }
    this.showBoard();
  }

  /** Handles one line of input. Never throws for bad input: it explains and waits for another try. */
  handleLine(line: string): void {
    if (this.state === 'closed') return;
    const text = line.trim();
    if (text === '') return;
    const [word, ...rest] = text.split(/\s+/);
    const argument = text.slice(word.length).trim();
    switch (word.toLowerCase()) {
      case 'help':
      case '?':
        return this.write(HELP);
      case 'board':
        return this.showBoard();
      case 'moves':
        return this.write(this.state === 'playing' ? `Legal moves: ${this.chess.moves().join(' ')}` : 'The game is over.');
      case 'pgn':
        return this.write(this.pgn());
      case 'save':
        if (rest.length === 0) return this.write('save needs a file name: save FILE');
        this.save(argument);
        return;
      case 'hint':
        return this.hint();
      case 'explain':
        return this.explain(argument);
      case 'undo':
        return this.undo();
      case 'resign':
        return this.resign();
      case 'quit':
      case 'exit':
        return this.close();
    }
    if (this.state === 'over') {
      this.write('The game is over: save FILE, pgn, undo or quit.');
      return;
    }
    this.humanMoves(text);
  }

  /** The end of input: the same as quit. */
  end(): void {
    this.close();
  }

  /** The game as PGN, with the headers Event, Site, Date, Round, White, Black, Result (and FEN when set up). */
  pgn(): string {
    const white = this.human === 'w' ? this.humanName : this.morphName;
    const black = this.human === 'w' ? this.morphName : this.humanName;
    this.chess.setHeader('Event', 'Morph terminal game');
    this.chess.setHeader('Date', pgnDate(this.config.date ?? new Date()));
    this.chess.setHeader('White', white);
    this.chess.setHeader('Black', black);
    this.chess.setHeader('Result', this.result);
    return this.chess.pgn() + '\n';
  }

  private get humanName(): string {
    return this.config.humanName ?? 'Human';
  }

  private get morphName(): string {
    return this.config.morphName ?? 'Morph';
  }

  private humanMoves(text: string): void {
    const parsed = this.parseMove(text);
    if (typeof parsed === 'string') {
      this.write(parsed);
      return;
    }
    this.play(parsed);
    if (this.checkGameEnd()) return;
    this.morphMoves();
    if (this.checkGameEnd()) return;
    this.showBoard();
  }

  /** The legal move the person meant, or a message saying why the text is not one. */
  private parseMove(input: string): Move | string {
    const legal = this.chess.moves({ verbose: true });
    const uci = UCI_INPUT.exec(input.toLowerCase());
    if (uci) {
      const [, from, to, promotion] = uci;
      const found = legal.find((m) => m.from === from && m.to === to && (m.promotion ?? undefined) === promotion);
      if (found) return found;
      if (!promotion && legal.some((m) => m.from === from && m.to === to)) {
        return `${input} is a promotion: add the piece, e.g. ${from}${to}q (or ${to}=Q).`;
      }
      return this.illegal(input);
    }
    // Forgiving spellings: 0-0 and o-o for castling, and a lower-case piece letter (but "b" is a pawn file).
    const san = input.replace(/^[0o]-[0o]-[0o]/i, 'O-O-O').replace(/^[0o]-[0o]/i, 'O-O');
    const candidates = /^[nrqk][a-h1-8x]/.test(san) ? [san, san[0].toUpperCase() + san.slice(1)] : [san];
    for (const candidate of candidates) {
      const found = sanToMove(this.chess.fen(), candidate, legal);
      if (found) return found;
    }
    if (SAN_INPUT.test(san) || /^[a-h][1-8][a-h][1-8]/.test(input)) return this.illegal(input);
    return `"${input}" is neither a move nor a command. Moves look like e4, Nf3, O-O or e2e4; type help for more.`;
  }

  private illegal(input: string): string {
    const check = this.chess.inCheck() ? ' You are in check.' : '';
    return `Illegal move: ${input}.${check} Legal moves: ${this.chess.moves().join(' ')}`;
  }

  private morphMoves(): void {
    const history = new GameHistory(this.startFen, this.moves);
    // The game move, as matches and UCI play it (bestRanked: the search cuts short the moves that cannot be best).
    const chosen = this.config.player.bestRanked(history);
    const label = moveLabel(this.chess);
    const move = this.play({ from: chosen.move.slice(0, 2), to: chosen.move.slice(2, 4), promotion: chosen.move[4] });
    this.write(`${this.morphName} plays ${label}${move.san}  (value ${chosen.value.toFixed(3)})`);
  }

  /**
   * What Morph would play in the person's place, chosen as it chooses (MorphPlayer.choose) without drawing on its
   * seeded tie-break: against a bare king the rules' order where its search looks at mates (its values see every
   * winning move alike there); else its best move, or, when several share the best score, those moves as equals
   * (it picks one at random, so listing them in move order would name a choice it does not make); then the next.
   */
  private hint(): void {
    if (this.state !== 'playing') return this.write('The game is over.');
    const history = new GameHistory(this.startFen, this.moves);
    const { player } = this.config;
    const ranking = player.rankMoves(history);
    const sans = this.sanByUci(this.chess.fen());
    const san = (r: RankedMove) => sans.get(r.move) ?? r.move;
    const named = (r: RankedMove) => `${san(r)} (${r.value.toFixed(3)}${ruleNote(r)})`;
    const of = ranking.length > 3 ? ` (of ${ranking.length} moves)` : '';
    // Any seed: it only breaks ties between moves the rules' order finds equally good.
    const mating = player.extensions.bareKing ? bareKingMove(history, new Random(0)) : undefined;
    if (mating !== undefined) {
      const move = ranking.find((r) => r.move === uciMove(mating))!;
      return this.write(`${this.morphName} would play ${san(move)}: against a bare king it mates by the rules' order, not by its values.`);
    }
    // A forced mate by checks comes first and is played whatever ties it (MorphPlayer.ownMate).
    // With a late-move reduction or null-move pruning the game search can value the best moves otherwise than the full ranking does
    // (MorphPlayer.choose): the moves Morph chooses among are the game search's, the rest follow the ranking.
    const among = windowDependent(player.extensions) ? player.bestRanking(history) : ranking;
    const best = player.choiceScore(among[0]);
    const tied = among[0].mateIn === undefined ? among.filter((r) => player.choiceScore(r) >= best - TIE_TOLERANCE) : [among[0]];
    const rest = ranking.filter((r) => !tied.some((t) => t.move === r.move));
    if (tied.length > 1) {
      const listed = tied.slice(0, TIES_LISTED).map(san).join(', ') + (tied.length > TIES_LISTED ? ` and ${tied.length - TIES_LISTED} more` : '');
      const next = rest[0];
      return this.write(
        `${this.morphName} values ${tied.length} moves alike (${tied[0].value.toFixed(3)}${tied.every((r) => r.source === tied[0].source) ? ruleNote(tied[0], 'each ') : ''}) ` +
          'and would play one of them at random: ' +
          `${listed}${next ? `; next ${named(next)}` : ''}${of}.`,
      );
    }
    this.write(`${this.morphName} would play ${[tied[0], ...rest.slice(0, 2)].map(named).join(', then ')}${of}.`);
  }

  /**
   * Why a move is worth what Morph says: with no argument, Morph's last move (in the position it was played
   * from); with a move, that move for the side to move now.
   */
  private explain(argument: string): void {
    let moves = this.moves;
    let target: string | undefined;
    if (argument) {
      if (this.state !== 'playing') return this.write('The game is over: explain without a move explains Morph\'s last one.');
      const parsed = this.parseMove(argument);
      if (typeof parsed === 'string') return this.write(parsed);
      target = parsed.lan;
    } else {
      const last = this.played.map((move, i) => ({ move, i })).filter(({ move }) => move.color !== this.human).at(-1);
      if (!last) return this.write(`${this.morphName} has not moved yet: explain MOVE explains one of yours, e.g. explain e4.`);
      moves = this.moves.slice(0, last.i);
      target = last.move.lan;
    }
    const history = new GameHistory(this.startFen, moves);
    const player = this.config.player;
    const ranked = player.rankMoves(history, true).find((r) => r.move === target)!;
    this.write(explanationText(explainChoice(player, history, ranked)));
  }

  private sanByUci(fen: string): Map<string, string> {
    return new Map(new Chess(fen).moves({ verbose: true }).map((m) => [m.lan, m.san]));
  }

  /** Reports the end of the game, if it has ended, and saves it when asked to. */
  private checkGameEnd(): boolean {
    const how = this.endReason();
    if (how === null) return false;
    this.state = 'over';
    this.showBoard();
    this.write(`${how}: ${this.resultText()} (${this.result}).`);
    this.autoSave();
    this.write('Type save FILE to keep the game as PGN, pgn to print it, undo to take back your move, or quit.');
    return true;
  }

  private endReason(): string | null {
    const end = this.verdict();
    return end === null ? null : END_TEXT[end];
  }

  private resultText(): string {
    const result = this.result;
    if (result === '1/2-1/2') return 'draw';
    const whiteWon = result === '1-0';
    return (whiteWon ? this.human === 'w' : this.human === 'b') ? 'you win' : `${this.morphName} wins`;
  }

  /** Takes back the person's last move and everything after it (Morph's reply). */
  private undo(): void {
    if (this.resigned) {
      this.write('You resigned; that cannot be taken back.');
      return;
    }
    if (!this.played.some((move) => move.color === this.human)) {
      this.write('Nothing to undo: you have not moved yet.');
      return;
    }
    let undone: Move | undefined;
    do {
      this.chess.undo();
      undone = this.played.pop();
    } while (undone && undone.color !== this.human);
    this.state = 'playing';
    this.autoSaved = false;
    this.write(`Took back ${undone!.san} and what followed.`);
    this.showBoard();
  }

  private resign(): void {
    if (this.state !== 'playing') {
      this.write('The game is already over.');
      return;
    }
    this.resigned = true;
    this.state = 'over';
    this.write(`You resigned: ${this.morphName} wins (${this.result}).`);
    this.autoSave();
    this.write('Type save FILE to keep the game as PGN, pgn to print it, or quit.');
  }

  private close(): void {
    if (this.state === 'closed') return;
    this.autoSave();
    this.state = 'closed';
    this.write('Bye.');
  }

  private autoSave(): void {
    if (!this.config.autoPgnPath || this.autoSaved) return;
    if (this.save(this.config.autoPgnPath)) this.autoSaved = true;
  }

  private save(path: string): boolean {
    try {
      this.saveFile(path, this.pgn());
    } catch (error) {
      const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      this.write(`Could not save to ${path}: ${reason}`);
      return false;
    }
    this.write(`Saved the game to ${path}.`);
    return true;
  }

  private play(move: { from: string; to: string; promotion?: string }): Move {
    const played = this.chess.move(move);
    this.played.push(played);
    return played;
  }

  private showBoard(): void {
    this.write(boardDiagram(this.chess, this.config.humanColor, this.played.at(-1)?.san));
  }

  private write(text: string): void {
    this.config.write(text);
  }
}

/** The legal move that a SAN text (read leniently by chess.js) denotes, if any. */
function sanToMove(fen: string, san: string, legal: Move[]): Move | undefined {
  try {
    const played = new Chess(fen).move(san, { strict: false });
    return legal.find((m) => m.lan === played.lan);
  } catch {
    return undefined;
  }
}

/** "12. " before a White move, "12... " before a Black one. */
function moveLabel(chess: Chess): string {
  return `${chess.moveNumber()}${chess.turn() === 'w' ? '.' : '...'} `;
}

/** Why the rules, not the patterns, value a move: what it ends the game in, or leads back to. */
const RULE_NOTES: Record<Exclude<ValueSource, 'patterns'>, string> = {
  checkmate: 'mates',
  stalemate: 'stalemate',
  insufficient: 'a draw by insufficient material',
  threefold: 'a draw by threefold repetition',
  'fifty-move': 'a draw by the 50-move rule',
  repetition: 'back to a position seen before',
};

function ruleNote(r: RankedMove, each = ''): string {
  return r.source === 'patterns' ? '' : `, ${each}${RULE_NOTES[r.source]}`;
}

/** Tied moves a hint names before it counts the rest. */
const TIES_LISTED = 6;

function pgnDate(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}.${pad(date.getMonth() + 1)}.${pad(date.getDate())}`;
}

/**
 * The board in letters (White upper case, Black lower case, "." empty), from `side`'s point of view, with
 * the side to move and, when there is one, the last move.
 */
export function boardDiagram(chess: Chess, side: Side, lastMove?: string): string {
  const rows = chess.board(); // rows[0] is rank 8, each row a..h
  const ranks = side === 'white' ? [0, 1, 2, 3, 4, 5, 6, 7] : [7, 6, 5, 4, 3, 2, 1, 0];
  const files = side === 'white' ? [0, 1, 2, 3, 4, 5, 6, 7] : [7, 6, 5, 4, 3, 2, 1, 0];
  const lines = ['    +-----------------+'];
  for (const r of ranks) {
    const cells = files.map((f) => {
      const piece = rows[r][f];
      if (!piece) return '.';
      return piece.color === 'w' ? piece.type.toUpperCase() : piece.type;
    });
    lines.push(`  ${8 - r} | ${cells.join(' ')} |`);
  }
  lines.push('    +-----------------+');
  lines.push(`      ${files.map((f) => 'abcdefgh'[f]).join(' ')}`);
  const toMove = chess.turn() === 'w' ? 'White' : 'Black';
  lines.push(`  ${toMove} to move${lastMove ? ` (last move ${lastMove})` : ''}${chess.inCheck() && !chess.isCheckmate() ? ', check' : ''}`);
  return lines.join('\n');
}
