import Type, { type Static } from 'typebox';
import { compileConfig } from './validate.js';

/** How often a classifier may fire (the original design's `ClassifierConfig`). */
export const ClassifierConfigSchema = Type.Object(
  {
    /** The confidence a relevant result must reach to count as a fire. Default 0.5. */
    minConfidence: Type.Number({ minimum: 0, maximum: 1, default: 0.5 }),
    /** Turns to skip after firing (0 = no cooldown). Default 0. */
    cooldownTurns: Type.Integer({ minimum: 0, default: 0 }),
    /** Maximum fires in one session; absent = unlimited. */
    maxFiresPerSession: Type.Optional(Type.Integer({ minimum: 0 })),
  },
  { additionalProperties: false },
);

/** Per-classifier firing limits. */
export type ClassifierConfig = Static<typeof ClassifierConfigSchema>;

/** Input form of {@link ClassifierConfig}: every field optional. */
export type ClassifierConfigInput = Partial<ClassifierConfig>;

const validateClassifierConfig = compileConfig(ClassifierConfigSchema, 'classifier config');

/**
 * Validates a classifier config and fills in defaults. Throws a `ConfigError` naming the field,
 * e.g. `invalid classifier config 'doom_loop': /minConfidence must be <= 1`.
 */
export function classifierConfig(
  input: ClassifierConfigInput = {},
  name?: string,
): ClassifierConfig {
  return validateClassifierConfig(
    { ...input },
    name ? `classifier config '${name}'` : 'classifier config',
  );
}

/** The default config: fires at confidence 0.5, no cooldown, no limit. */
export const DEFAULT_CLASSIFIER_CONFIG: ClassifierConfig = Object.freeze(classifierConfig());

/** Anything with a name: a classifier, a provider. */
interface Named {
  readonly name: string;
}

const nameOf = (classifier: string | Named): string =>
  typeof classifier === 'string' ? classifier : classifier.name;

/**
 * Remembers when each classifier last fired and how often, so cooldowns and per-session limits
 * hold across turns. One tracker per session.
 */
export class CooldownTracker {
  readonly #lastFire = new Map<string, number>();
  readonly #counts = new Map<string, number>();

  /** True when the classifier (or name) may fire at `turn` under `config`. */
  canFire(classifier: string | Named, turn: number, config: ClassifierConfig): boolean {
    return this.blockedBy(nameOf(classifier), turn, config) === undefined;
  }

  /** Why `name` may not fire at `turn` under `config`, or `undefined` when it may. */
  blockedBy(
    name: string,
    turn: number,
    config: ClassifierConfig,
  ): 'cooldown' | 'max_fires' | undefined {
    const last = this.#lastFire.get(name);
    // cooldownTurns N > 0: after firing at turn t, silent through t+N (the N turns it skips), may
    // fire again at t+N+1. N = 0 puts no limit at all, as in the original design.
    if (last !== undefined && config.cooldownTurns > 0 && turn - last <= config.cooldownTurns) {
      return 'cooldown';
    }
    if (
      config.maxFiresPerSession !== undefined &&
      (this.#counts.get(name) ?? 0) >= config.maxFiresPerSession
    ) {
      return 'max_fires';
    }
    return undefined;
  }

  /** Records that the classifier (or name) fired at `turn`. */
  recordFire(classifier: string | Named, turn: number): void {
    const name = nameOf(classifier);
    this.#lastFire.set(name, turn);
    this.#counts.set(name, (this.#counts.get(name) ?? 0) + 1);
  }

  /** How many times `name` has fired in this session. */
  fireCount(name: string): number {
    return this.#counts.get(name) ?? 0;
  }

  /** The turn `name` last fired at, if any. */
  lastFireTurn(name: string): number | undefined {
    return this.#lastFire.get(name);
  }

  /** Forgets everything (a new session). */
  reset(): void {
    this.#lastFire.clear();
    this.#counts.clear();
  }
}
