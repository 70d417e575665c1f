import type { LocalVerdict } from '../core/hybrid.js';
import { contextRouterConfig } from './config.js';
import type { ContextPolicy, ContextRouterConfig, ContextRouterConfigInput } from './schema.js';
import { confidenceFromScores, ModeScorer } from './scoring.js';
import { SignalMatcher } from './signal-matcher.js';

/** What the local router concluded about one question. */
export interface ContextRoute {
  /** The mode with the best score. */
  readonly mode: string;
  /** Confidence in [0, 0.99] from the two best scores; `noSignalConfidence` when nothing matched. */
  readonly confidence: number;
  /** Best score − second-best score. */
  readonly margin: number;
  /** Whether confidence and margin both reach their thresholds (the LLM is then not asked). */
  readonly confident: boolean;
  /** Every mode's score. */
  readonly scores: Readonly<Record<string, number>>;
  /** The signals found, in configuration order. */
  readonly signals: readonly string[];
  /** The policy of {@link mode}. */
  readonly policy: ContextPolicy;
}

/** A route with what made each signal fire, for explanations (`triage context`). */
export interface ExplainedContextRoute extends ContextRoute {
  /** The phrases found, by signal. */
  readonly evidence: Readonly<Record<string, readonly string[]>>;
  /** The intermediate scores (the original design's `definition`, `page`, `contextual`). */
  readonly features: Readonly<Record<string, number>>;
}

/**
 * The original design's local router (`_route_local`): signals found by one lexicon pass, weighted
 * scores per mode, confidence from the two best scores. Synchronous and allocation-light: it runs
 * on every question. Not safe to share between threads (it reuses buffers); a process may share one.
 */
export class LocalContextRouter {
  readonly config: ContextRouterConfig;
  readonly #matcher: SignalMatcher;
  readonly #scorer: ModeScorer;
  readonly #flags: Uint8Array;
  readonly #scores: Float64Array;
  readonly #policies: readonly ContextPolicy[];
  // The thresholds, read on every call: fields of this class, not lookups in the config object.
  readonly #maxChars: number;
  readonly #noSignalConfidence: number;
  readonly #minConfidence: number;
  readonly #minMargin: number;

  /**
   * Builds a router from a configuration: a partial one is completed with the defaults (see
   * `contextRouterConfig`); one returned by `contextRouterConfig` is checked again as it is.
   */
  constructor(config: ContextRouterConfig | ContextRouterConfigInput = {}) {
    this.config = contextRouterConfig(config);
    this.#matcher = new SignalMatcher(this.config.signals);
    const signalIndex = new Map(this.#matcher.names.map((name, i) => [name, i]));
    this.#scorer = new ModeScorer(this.config.features, this.config.modes, signalIndex);
    this.#flags = new Uint8Array(this.#matcher.names.length);
    this.#scores = new Float64Array(this.#scorer.modes.length);
    this.#policies = this.#scorer.modes.map((mode) => this.config.modes[mode]!.policy);
    this.#maxChars = this.config.maxQuestionChars;
    this.#noSignalConfidence = this.config.noSignalConfidence;
    this.#minConfidence = this.config.localConfidenceThreshold;
    this.#minMargin = this.config.localMarginThreshold;
  }

  /** Mode names, in table order. */
  get modes(): readonly string[] {
    return this.#scorer.modes;
  }

  /** Routes one question (only its first `maxQuestionChars` are read). */
  route(question: string): ContextRoute {
    if (typeof question !== 'string') {
      throw new TypeError(`context router: the question must be a string, got ${typeof question}`);
    }
    const end = Math.min(question.length, this.#maxChars);
    const matched = this.#matcher.match(question, end, this.#flags);
    const scores = this.#scores;
    this.#scorer.score(this.#flags, scores);
    let top = 0;
    let second = -1;
    for (let m = 1; m < scores.length; m++) {
      if (scores[m]! > scores[top]!) {
        second = top;
        top = m;
      } else if (second < 0 || scores[m]! > scores[second]!) {
        second = m;
      }
    }
    const best = scores[top]!;
    const runnerUp = scores[second]!;
    const confidence =
      matched === 0 ? this.#noSignalConfidence : confidenceFromScores(best, runnerUp);
    const margin = best - runnerUp;
    const names = this.#scorer.modes;
    const scoreRecord: Record<string, number> = {};
    for (let m = 0; m < names.length; m++) scoreRecord[names[m]!] = scores[m]!;
    const signals: string[] = [];
    for (let s = 0; s < this.#flags.length; s++) {
      if (this.#flags[s] === 1) signals.push(this.#matcher.names[s]!);
    }
    return {
      mode: names[top]!,
      confidence,
      margin,
      confident: confidence >= this.#minConfidence && margin >= this.#minMargin,
      scores: scoreRecord,
      signals,
      policy: this.#policies[top]!,
    };
  }

  /** Like {@link route}, with the phrases behind each signal and the intermediate scores. */
  explain(question: string): ExplainedContextRoute {
    const route = this.route(question);
    const features = this.#scorer.lastFeatures();
    const end = Math.min(question.length, this.#maxChars);
    return { ...route, features, evidence: this.#matcher.evidence(question, end) };
  }

  /** The policy of a mode of the table. Throws a RangeError for an unknown mode. */
  policy(mode: string): ContextPolicy {
    const index = this.#scorer.modes.indexOf(mode);
    if (index < 0) throw new RangeError(`unknown context mode: ${mode}`);
    return this.#policies[index]!;
  }
}

/** The local verdict of a route, for the core's `Hybrid`. */
export function localVerdict(route: ContextRoute): LocalVerdict<string> {
  return {
    value: route.mode,
    confidence: route.confidence,
    margin: route.margin,
    reason:
      route.signals.length === 0 ? 'no signal matched' : `signals: ${route.signals.join('+')}`,
  };
}
