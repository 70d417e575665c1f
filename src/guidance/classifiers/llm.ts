import Type, { type Static } from 'typebox';
import type { AsyncClassifier, Classifier } from '../../core/classifier.js';
import { ConfigError, describeError } from '../../core/errors.js';
import {
  type DecisionCache,
  FALLBACK_CAUSE_TEXT,
  type FallbackContext,
  Hybrid,
  type HybridStats,
  type LlmVerdict,
  type LocalVerdict,
} from '../../core/hybrid.js';
import { ClassificationResult } from '../../core/result.js';
import { askJson, type LlmProvider } from '../../llm/index.js';
import type { GuidanceContext } from '../types.js';

/** The LLM's answer. Sent as the structured-output schema, and checked again on receipt. */
export const LlmGuidanceVerdictSchema = Type.Object(
  {
    /** Whether the guidance applies now. */
    relevant: Type.Boolean(),
    /** How sure the model is, in [0, 1]. */
    confidence: Type.Number({ minimum: 0, maximum: 1 }),
    /** One short sentence. */
    reason: Type.String(),
  },
  { additionalProperties: false },
);
export type LlmGuidanceVerdict = Static<typeof LlmGuidanceVerdictSchema>;

/** Longest reason kept from the model; cut, never rejected for length. */
export const LLM_REASON_LIMIT = 300;
/** The document's strict timeout of the LLM classifier. */
export const DEFAULT_LLM_TIMEOUT_MS = 500;

/** Options of {@link LlmGuidanceClassifier}. */
export interface LlmGuidanceClassifierOptions {
  /** Who answers. Any implementation of the provider contract. */
  readonly provider: LlmProvider;
  /** What to decide, e.g. "Is the agent stuck and should it change approach?". */
  readonly question: string;
  /** Unique name (cooldowns, audit). Default `llm(<model>)`. */
  readonly name?: string;
  /** The model, overriding the provider's default. */
  readonly model?: string;
  /** Strict time limit in milliseconds. Default 500. */
  readonly timeoutMs?: number;
  /**
   * A local classifier that must fire before the LLM is asked: the LLM confirms or rejects its
   * `maybe`s instead of being called on every event. Without a gate the LLM is asked every time.
   */
  readonly gate?: Classifier<GuidanceContext>;
  /** Gate confidence from which the gate's answer is used without asking. Default: always ask. */
  readonly trustGateAt?: number;
  /** Recent calls described to the model. Default 5. */
  readonly recentCalls?: number;
  /** Most tokens of the answer. Default 200. */
  readonly maxTokens?: number;
  /** A cache of verdicts by prompt (e.g. `lruDecisionCache()`); identical situations ask once. */
  readonly cache?: DecisionCache<LlmGuidanceValue>;
}

/** What the hybrid decides: whether guidance applies, and why. */
export interface LlmGuidanceValue {
  readonly relevant: boolean;
  readonly reason: string;
}

/** Counters of an {@link LlmGuidanceClassifier}. */
export interface LlmGuidanceStats extends HybridStats {
  /** Evaluations where the gate did not fire, so the LLM was not asked. */
  gateSkips: number;
  /** Evaluations where the gate was sure enough to answer alone. */
  gateTrusted: number;
}

const SYSTEM_PROMPT =
  'You watch the tool calls of an AI agent and decide whether the agent should receive a piece of ' +
  'guidance now. Guidance is cheap but should be precise: answer relevant=true only when the ' +
  'situation described calls for it. Reply with JSON only: {"relevant": boolean, "confidence": ' +
  'number from 0 to 1, "reason": one short sentence}.';

const ERROR_EXCERPT = 160;
// The hybrid's fixed parts, shared by every instance (an instance stays small).
const UNDECIDED: LocalVerdict<LlmGuidanceValue> = Object.freeze({
  value: Object.freeze({ relevant: false, reason: 'not decided locally' }),
  confidence: 0,
});
// The gate runs before the hybrid is consulted; once consulted, the local side is unsure.
const undecided = (): LocalVerdict<LlmGuidanceValue> => UNDECIDED;
const failOpen = ({ cause, error }: FallbackContext<GuidanceContext, LlmGuidanceValue>) => {
  const reason = `no guidance (fail open): LLM ${FALLBACK_CAUSE_TEXT[cause]}${error ? `: ${error}` : ''}`;
  return { value: { relevant: false, reason }, confidence: 0, reason };
};
const sameRelevance = (a: LlmGuidanceValue, b: LlmGuidanceValue) => a.relevant === b.relevant;

/**
 * Asks a small, fast model whether guidance applies (the original design's `LLMClassifier`), under a
 * strict timeout (500 ms by default), through the core `Hybrid` (so timeouts, errors, counters and
 * an optional verdict cache work as for every other subsystem). It fails open: on a timeout, an
 * error, or an answer that is not `{relevant, confidence, reason}`, it answers `no`, with the
 * cause in the reason and `metadata.source = 'fallback'`.
 *
 * The model sees a minimal summary: the question, counters, the last calls' tool names and
 * outcomes with normalised error messages, and the pending calls' tool names; never params or
 * tool output.
 */
export class LlmGuidanceClassifier implements AsyncClassifier<GuidanceContext> {
  readonly name: string;
  readonly question: string;
  readonly #options: LlmGuidanceClassifierOptions;
  readonly #hybrid: Hybrid<GuidanceContext, LlmGuidanceValue>;
  #gateSkips = 0;
  #gateTrusted = 0;

  constructor(options: LlmGuidanceClassifierOptions) {
    if (typeof options.question !== 'string' || options.question.trim() === '') {
      throw new ConfigError('llm classifier options', [
        { path: '/question', message: 'must be a non-empty string' },
      ]);
    }
    const timeoutMs = options.timeoutMs ?? DEFAULT_LLM_TIMEOUT_MS;
    if (!(timeoutMs > 0 && Number.isFinite(timeoutMs))) {
      throw new ConfigError('llm classifier options', [
        { path: '/timeoutMs', message: 'must be > 0' },
      ]);
    }
    this.#options = options;
    this.question = options.question;
    this.name = options.name ?? `llm(${options.model ?? options.provider.model})`;
    const { cache } = options;
    this.#hybrid = new Hybrid<GuidanceContext, LlmGuidanceValue>(
      {
        name: this.name,
        local: undecided,
        minConfidence: 1,
        timeoutMs,
        llm: (context, _local, signal) => this.#ask(context, signal),
        fallback: failOpen,
        ...(cache ? { cache, cacheKey: (context: GuidanceContext) => this.prompt(context) } : {}),
      },
      sameRelevance,
    );
  }

  /** Counters since creation: LLM calls, timeouts, errors, fallbacks, time spent, gate skips. */
  get stats(): LlmGuidanceStats {
    return { ...this.#hybrid.stats, gateSkips: this.#gateSkips, gateTrusted: this.#gateTrusted };
  }

  async classify(context: GuidanceContext, signal?: AbortSignal): Promise<ClassificationResult> {
    const { gate, trustGateAt } = this.#options;
    let gateReason: string | undefined;
    if (gate) {
      const local = gate.classify(context);
      if (!local.relevant) {
        this.#gateSkips++;
        return ClassificationResult.no();
      }
      if (trustGateAt !== undefined && local.confidence >= trustGateAt) {
        this.#gateTrusted++;
        return local;
      }
      gateReason = local.reason;
    }
    try {
      const decision = await this.#hybrid.decide(context, signal === undefined ? {} : { signal });
      const metadata = {
        source: decision.source,
        llmMs: decision.llmMs,
        ...(decision.cached ? { cached: true } : {}),
        ...(gateReason ? { gate: gateReason } : {}),
      };
      const { relevant, reason } = decision.value;
      const byLlm = decision.source === 'llm' || decision.source === 'cached';
      if (!byLlm) return ClassificationResult.no({ reason, metadata });
      return relevant
        ? ClassificationResult.yes(decision.confidence, { reason: `LLM: ${reason}`, metadata })
        : ClassificationResult.no({ reason: `LLM: ${reason}`, metadata });
    } catch (error) {
      // Only an abort of the caller's own signal reaches here: still no guidance, never a throw.
      return ClassificationResult.no({
        reason: `no guidance (fail open): aborted: ${describeError(error)}`,
        metadata: { source: 'fallback' },
      });
    }
  }

  /** The user message sent to the model for this context. */
  prompt(context: GuidanceContext): string {
    const { trajectory } = context;
    const recent = trajectory.recentToolCalls(this.#options.recentCalls ?? 5);
    const lines = [
      `Question: ${this.question}`,
      `Turn ${context.turnCount}; ${context.toolCallCount} tool calls so far; ` +
        `${trajectory.consecutiveErrors} consecutive errors; ` +
        `${trajectory.progressStall()?.actionsDuringStall ?? 0} calls without progress.`,
      recent.length === 0 ? 'No completed calls yet.' : 'Last calls, oldest first:',
      ...recent.map(
        (call, i) =>
          `${i + 1}. ${call.toolName}: ${
            call.result.success
              ? 'ok'
              : `error: ${(call.normalisedError ?? '').slice(0, ERROR_EXCERPT)}`
          }`,
      ),
    ];
    const pending = context.pendingToolCalls;
    if (pending.length > 0)
      lines.push(`Pending calls: ${pending.map((c) => c.toolName).join(', ')}`);
    return lines.join('\n');
  }

  async #ask(context: GuidanceContext, signal: AbortSignal): Promise<LlmVerdict<LlmGuidanceValue>> {
    const { provider, model, maxTokens } = this.#options;
    // askJson reads JSON from the reply text where the provider gave none, and validates it.
    const verdict = await askJson(provider, {
      system: SYSTEM_PROMPT,
      prompt: this.prompt(context),
      schema: LlmGuidanceVerdictSchema,
      schemaName: 'guidance_verdict',
      maxTokens: maxTokens ?? 200,
      signal,
      timeoutMs: this.#hybrid.policy.timeoutMs,
      ...(model ? { model } : {}),
    });
    const reason = verdict.reason.trim().slice(0, LLM_REASON_LIMIT) || 'no reason given';
    return { value: { relevant: verdict.relevant, reason }, confidence: verdict.confidence };
  }
}
