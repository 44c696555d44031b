/**
 * One side of a match: the spec it was given and the player it fields in each game.
 *
 * In-process players (random, greedy, ab:D, Morph) are created afresh for every game with that game's seed, so
 * their random choices vary between games yet the match repeats from its seed. A Morph database is opened once,
 * read-only, and shared by those per-game players (loading the hierarchy is the expensive part). External
 * engines (stockfish, uci, gnuchess) are processes: one is kept for the whole match and replaced only after it
 * failed.
 */
import { MovePatterns } from '../model/movePatterns.ts';
import { AlphaBetaPlayer, parseAlphaBetaSpec } from '../engines/alphabeta.ts';
import { createOpponent, type CreateOpponentOptions } from '../engines/opponentFactory.ts';
import { formatOpponentSpec, parseOpponentSpec, type OpponentSpec } from '../engines/opponentSpec.ts';
import type { GamePlayer } from '../engines/gamePlayer.ts';
import { playingMaturity } from '../player/morphPlayer.ts';
import { PatternStore } from '../store/patternStore.ts';
import { DEFAULT_MODEL_MODE, isCoached, morphPlayerWithModels, type ModelMode } from '../model/predictedReplies.ts';
import { OpponentModel } from '../model/opponentModel.ts';
import { evaluationWithMaterialPrior, storedConfig } from '../learn/config.ts';
import { policyModelFor } from '../model/ownPolicy.ts';
import { checkDatabaseFileKind } from '../store/databaseKind.ts';
import { badInput } from '../util/errors.ts';
import { defaultPolicyWeight, extensionsOf, type SearchSpec } from '../search/extensions.ts';

export interface ContestantOptions {
  /** Overrides the maturity stored in a Morph database. */
  maturity?: number;
  /** Overrides the play search stored in a Morph database. */
  search?: SearchSpec;
  /** Overrides the material prior stored in a Morph database (config materialPrior). */
  materialPrior?: number;
  engineTimeouts?: CreateOpponentOptions['engineTimeouts'];
  /** A model of the other player: a Morph contestant then looks along its predicted replies (src/model). */
  opponentModel?: string;
  /** How the opponent model is used (predictedReplies.ts); default DEFAULT_MODEL_MODE. */
  modelMode?: ModelMode;
  /**
   * A model of a strong player's choices: a Morph contestant's move policy (src/model/policy.ts). By default its
   * database's own policy when it has one (src/model/ownPolicy.ts); false: none.
   */
  policyModel?: string | false;
  /** The policy's weight (default: defaultPolicyWeight of the search the player plays). */
  policyWeight?: number;
  /** A Morph contestant's contempt (MorphPlayerOptions.contempt; default: defaultContempt of its search). */
  contempt?: number;
  /** False: a Morph contestant plays without what its graph patterns add (MorphPlayerOptions.graphPatterns). */
  graphPatterns?: boolean;
  /** A move-pattern database, read by a Morph contestant whose search has patterns=K (MorphPlayerOptions.movePatterns). */
  movePatterns?: string;
  /** A move-pattern database used as a second move policy (PlayerModels.movePolicy), joined to the policy. */
  movePolicy?: string;
}

const EXTERNAL_KINDS: ReadonlySet<OpponentSpec['kind']> = new Set(['stockfish', 'uci', 'xboard', 'gnuchess']);

export class Contestant {
  /** The canonical spec text, e.g. "stockfish:skill=0,depth=1". */
  readonly name: string;
  private readonly spec: OpponentSpec;
  private engine: GamePlayer | null = null;
  private store: PatternStore | null = null;
  private model: OpponentModel | null = null;
  private policyModel: OpponentModel | null = null;
  private movePatterns: MovePatterns | null = null;
  private movePolicy: MovePatterns | null = null;
  /** The policy model file this contestant plays with, if any. */
  private readonly policyPath: string | undefined;
  /** With a policy: its weight. */
  private readonly policyWeight: number | undefined;

  constructor(
    specText: string,
    private readonly options: ContestantOptions = {},
  ) {
    this.spec = parseOpponentSpec(specText);
    if (options.opponentModel !== undefined && this.spec.kind !== 'morph') {
      throw badInput(`an opponent model needs a Morph player (morph:FILE), not ${formatOpponentSpec(this.spec)}`);
    }
    if (typeof options.policyModel === 'string' && this.spec.kind !== 'morph') {
      throw badInput(`a policy needs a Morph player (morph:FILE), not ${formatOpponentSpec(this.spec)}`);
    }
    if (options.movePolicy !== undefined && this.spec.kind !== 'morph') {
      throw badInput(`a move policy needs a Morph player (morph:FILE), not ${formatOpponentSpec(this.spec)}`);
    }
    if (options.graphPatterns === false && this.spec.kind !== 'morph') {
      throw badInput(`--no-graph-patterns needs a Morph player (morph:FILE), not ${formatOpponentSpec(this.spec)}`);
    }
    const coached = isCoached(options.opponentModel !== undefined, options.modelMode);
    if ((typeof options.policyModel === 'string' || options.movePolicy !== undefined) && coached) {
      throw badInput('a Morph player coached by an opponent model plays without a policy');
    }
    // IAM's coach plays without a policy, its database's own included.
    this.policyPath = this.spec.kind === 'morph' && !coached ? policyModelFor(this.spec.dbPath, options.policyModel) : undefined;
    // Checked now, so a bad policy file is refused before the first game rather than failing every game.
    if (this.policyPath !== undefined) checkDatabaseFileKind(this.policyPath, 'opponent-model');
    if (options.movePatterns !== undefined && this.spec.kind === 'morph') checkDatabaseFileKind(options.movePatterns, 'move-patterns');
    if (options.movePolicy !== undefined) checkDatabaseFileKind(options.movePolicy, 'move-patterns');
    // Resolved now, so that the name says the weight played.
    if ((this.policyPath !== undefined || options.movePolicy !== undefined) && this.spec.kind === 'morph') {
      this.policyWeight = options.policyWeight ?? defaultPolicyWeight(extensionsOf(options.search ?? storedConfig(this.spec.dbPath).playSearch));
    }
    this.name =
      formatOpponentSpec(this.spec) +
      (options.opponentModel !== undefined ? `+model:${options.opponentModel}@${options.modelMode ?? DEFAULT_MODEL_MODE}` : '') +
      (this.policyPath !== undefined ? `+policy:${this.policyPath}@${this.policyWeight}` : '') +
      (options.movePolicy !== undefined ? `+move-policy:${options.movePolicy}@${this.policyWeight}` : '') +
      (options.graphPatterns === false ? '-graph-patterns' : '') +
      (options.movePatterns !== undefined && this.spec.kind === 'morph' ? `+move-patterns:${options.movePatterns}` : '');
  }

  get isExternal(): boolean {
    return EXTERNAL_KINDS.has(this.spec.kind);
  }

  /** The player for one game; an in-process player is new and seeded with `seed`. */
  async playerForGame(seed: number): Promise<GamePlayer> {
    if (this.isExternal) {
      this.engine ??= await this.create(seed);
      return this.engine;
    }
    return this.create(seed);
  }

  /** Releases a per-game player (an external engine stays for the next game). */
  async endGame(player: GamePlayer | null): Promise<void> {
    if (player !== null && player !== this.engine) await player.close();
  }

  /** After an engine failure: closes the external engine, so the next game starts a fresh one. */
  async discardEngine(): Promise<void> {
    const engine = this.engine;
    this.engine = null;
    await engine?.close();
  }

  async close(): Promise<void> {
    await this.discardEngine();
    this.store?.close();
    this.store = null;
    this.model?.close();
    this.model = null;
    this.policyModel?.close();
    this.policyModel = null;
    this.movePatterns?.close();
    this.movePatterns = null;
    this.movePolicy?.close();
    this.movePolicy = null;
  }

  private create(seed: number): Promise<GamePlayer> {
    return createOpponent(this.spec, {
      seed,
      engineTimeouts: this.options.engineTimeouts,
      morphFactory: (morph, context) => {
        // Read-only: a match never changes what Morph knows.
        this.store ??= PatternStore.open(morph.dbPath, { readonly: true });
        const maturity = playingMaturity(this.store, this.options.maturity);
        if (this.options.opponentModel !== undefined) this.model ??= OpponentModel.open(this.options.opponentModel);
        if (this.policyPath !== undefined) this.policyModel ??= OpponentModel.open(this.policyPath);
        if (this.options.movePatterns !== undefined) this.movePatterns ??= MovePatterns.open(this.options.movePatterns);
        if (this.options.movePolicy !== undefined) this.movePolicy ??= MovePatterns.open(this.options.movePolicy);
        const models = { opponent: this.model, policy: this.policyModel, policyWeight: this.policyWeight, movePolicy: this.movePolicy, mode: this.options.modelMode };
        const name = this.model !== null || this.policyModel !== null || this.movePolicy !== null ? this.name : context.name;
        const evaluation = evaluationWithMaterialPrior(this.store.db, this.options.materialPrior);
        const options = {
          maturity, seed: context.seed, search: this.options.search, evaluation, contempt: this.options.contempt, graphPatterns: this.options.graphPatterns,
          movePatterns: this.movePatterns ?? undefined,
        };
        return morphPlayerWithModels(this.store, options, models, name);
      },
      alphaBetaFactory: (ab, context) => new AlphaBetaPlayer(parseAlphaBetaSpec(ab.body, context.seed)),
    });
  }
}
