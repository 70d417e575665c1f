import type { DecisionSource, FallbackCause } from '../core/hybrid.js';
import type { InjectionSource, RiskLevel } from '../injection/types.js';
import type { Triage, TriageInjectionDecision } from '../triage.js';
import type { TriageRequest } from '../triage-request.js';
import type { InjectionSection } from './config.js';
import type { Cancellation, ChatRequestBody } from './decide.js';

/**
 * The server's prompt-injection screen: the front door's injection part (the local detector, the
 * LLM check when it is unsure and an LLM is configured) over the texts of the request's current
 * turn, and what the deployment's policy does about the riskiest one.
 */

/** The riskiest text of a request's current turn. */
export interface InjectionFinding {
  readonly riskLevel: RiskLevel;
  readonly confidence: number;
  /** Where the verdict came from: the detector (`local`), the LLM check, or the fallback. */
  readonly decidedBy: DecisionSource;
  /** Why it fell back, when it did. */
  readonly fallbackCause: FallbackCause | null;
  /** Which kind of text it was: the user's message or a tool result. */
  readonly text: InjectionSource;
  /** The evidence: kind and what fired (the matched words, never more of the text). */
  readonly signals: readonly { readonly kind: string; readonly label: string }[];
  /** Whether the policy acts on it (its level is at least `minLevel`). */
  readonly acts: boolean;
}

/** Order of risk; `unknown` (not established) is reported but never acted on. */
const RANK: Readonly<Record<RiskLevel, number>> = {
  normal: 0,
  unknown: 0.5,
  suspicious: 1,
  high_risk: 2,
};

/** Evidence shown per finding. */
const MAX_SIGNALS = 5;

const INJECTION = { parts: ['injection'] } as const;

/** Screens requests for prompt injections and says what the policy does. */
export class InjectionScreen {
  readonly policy: InjectionSection['policy'];
  readonly #minRank: number;
  readonly #triage: Triage;

  constructor(section: InjectionSection, triage: Triage) {
    this.policy = section.policy;
    this.#minRank = RANK[section.minLevel];
    this.#triage = triage;
  }

  /**
   * The riskiest text of the current turn (the messages after the last assistant message: the
   * user's, and tool results), or `undefined` when there is no text to scan. Synchronous unless
   * the detector is unsure of a text and an LLM is configured.
   */
  scan(
    body: ChatRequestBody,
    cancel: Cancellation,
  ): InjectionFinding | Promise<InjectionFinding> | undefined {
    const request = body as unknown as TriageRequest;
    const local = this.#triage.classify(request, INJECTION);
    const decision = local.injection;
    if (decision === null) return undefined;
    if (!decision.needsLlm) return this.#finding(decision);
    return this.#triage
      .decide(request, { ...INJECTION, from: local, signal: cancel.signal })
      .then((decided) => this.#finding(decided.injection!));
  }

  #finding(decision: TriageInjectionDecision): InjectionFinding {
    const { riskLevel, local } = decision;
    return {
      riskLevel,
      confidence: decision.confidence,
      decidedBy: decision.source,
      fallbackCause: decision.fallbackCause,
      text: local.source,
      signals: local.signals.slice(0, MAX_SIGNALS).map(({ kind, label }) => ({ kind, label })),
      acts: RANK[riskLevel] >= this.#minRank,
    };
  }
}

/** The reason given to a client whose request was refused. */
export function blockReason(finding: InjectionFinding): string {
  const evidence = finding.signals
    .slice(0, 3)
    .map((s) => `${s.kind} "${s.label}"`)
    .join(', ');
  const what = finding.text === 'user' ? 'the user message' : 'a tool result';
  return (
    `request refused: ${what} looks like a prompt injection (risk ${finding.riskLevel}, ` +
    `confidence ${finding.confidence.toFixed(2)}${evidence ? `: ${evidence}` : ''})`
  );
}
