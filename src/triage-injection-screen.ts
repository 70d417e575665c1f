import type { DecisionSource, FallbackCause } from './core/hybrid.js';
import type { InjectionSource, RiskLevel } from './injection/types.js';
import type { Triage, TriageInjectionDecision } from './triage.js';
import { type Cancellation, deadlineOf } from './triage-cancellation.js';
import type { TriageRequest } from './triage-request.js';

/**
 * The prompt-injection screen of a chat request, which the server and the framework adapters
 * share: the front door's injection part (the local detector, the LLM check when it is unsure
 * and an LLM is configured) over every text the client controls (each user message and tool
 * result, earlier turns included), judged against the request's system messages (what they
 * protect or restrict makes some requests attacks), and what the deployment's policy does about
 * the riskiest one.
 */

/** What the policy does about risky texts (the server's `injection` section is one). */
export interface InjectionScreenPolicy {
  /** `block` or `flag` a text at or above `minLevel`; `off`: nothing is done (findings are still reported). */
  readonly policy: 'block' | 'flag' | 'off';
  /** The risk level from which the policy acts. */
  readonly minLevel: 'suspicious' | 'high_risk';
  /** What a text whose risk could not be established gets; absent: what an attack gets. */
  readonly unknown?: 'allow' | 'flag' | 'block' | undefined;
}

/** The riskiest text the client controls in a request. */
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
  /** Its message's index in `messages`. */
  readonly messageIndex: number | null;
  /**
   * What the policy does about it: `block` or `flag` when its level is at least `minLevel` (or
   * it is `unknown` and `unknown` says so), else `none`.
   */
  readonly action: InjectionAction;
  /** Whether the policy acts on it (`action` is not `none`). */
  readonly acts: boolean;
}

/** What the policy does about a finding. */
export type InjectionAction = 'none' | 'flag' | 'block';

/** Order of risk; `unknown` (not established) is acted on as `injection.unknown` says. */
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
  readonly policy: InjectionScreenPolicy['policy'];
  readonly #minRank: number;
  /** What the policy does to a text at `minLevel` or above, and to an `unknown` one. */
  readonly #onAttack: InjectionAction;
  readonly #onUnknown: InjectionAction;
  readonly #triage: Triage;

  constructor(section: InjectionScreenPolicy, triage: Triage) {
    this.policy = section.policy;
    this.#minRank = RANK[section.minLevel];
    this.#onAttack = section.policy === 'off' ? 'none' : section.policy;
    this.#onUnknown =
      section.unknown === undefined
        ? this.#onAttack
        : section.unknown === 'allow'
          ? 'none'
          : section.unknown;
    this.#triage = triage;
  }

  /**
   * The riskiest text the user controls (every user message and tool result: a client writes
   * the whole history), or `undefined` when there is no text to scan. Synchronous unless the
   * detector is unsure of a text and an LLM is configured. Texts seen before (earlier turns of
   * the conversation) cost a hash and a lookup: their verdicts are cached by content.
   */
  scan(
    body: { readonly messages: readonly unknown[] },
    cancel: Cancellation,
  ): InjectionFinding | Promise<InjectionFinding> | undefined {
    const request = body as unknown as TriageRequest;
    const local = this.#triage.classify(request, INJECTION);
    const decision = local.injection;
    if (decision === null) return undefined;
    if (!decision.needsLlm) return this.#finding(decision);
    return this.#triage
      .decide(request, { ...INJECTION, from: local, signal: cancel.signal, ...deadlineOf(cancel) })
      .then((decided) => this.#finding(decided.injection!));
  }

  #finding(decision: TriageInjectionDecision): InjectionFinding {
    const { riskLevel, local } = decision;
    const action =
      riskLevel === 'unknown'
        ? this.#onUnknown
        : RANK[riskLevel] >= this.#minRank
          ? this.#onAttack
          : 'none';
    return {
      riskLevel,
      confidence: decision.confidence,
      decidedBy: decision.source,
      fallbackCause: decision.fallbackCause,
      text: local.source,
      signals: local.signals.slice(0, MAX_SIGNALS).map(({ kind, label }) => ({ kind, label })),
      messageIndex: decision.messageIndex,
      action,
      acts: action !== 'none',
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
  const where = finding.messageIndex === null ? '' : `messages[${finding.messageIndex}], `;
  if (finding.riskLevel === 'unknown') {
    return (
      `request refused: the risk of ${what} could not be established (${where}risk unknown), ` +
      'and the policy refuses what it cannot clear'
    );
  }
  return (
    `request refused: ${what} looks like a prompt injection (${where}risk ${finding.riskLevel}, ` +
    `confidence ${finding.confidence.toFixed(2)}${evidence ? `: ${evidence}` : ''})`
  );
}
