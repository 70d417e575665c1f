import type { DecisionSource } from '../core/hybrid.js';
import type { InjectionConfigInput } from '../injection/config.js';
import { type InjectionDecision, InjectionGuard } from '../injection/guard.js';
import type { InjectionResult, InjectionSource, RiskLevel } from '../injection/types.js';
import type { LlmProvider } from '../llm/types.js';
import { messageText, roleOf } from './body.js';
import type { InjectionSection } from './config.js';
import type { Cancellation, ChatRequestBody } from './decide.js';

/**
 * The server's prompt-injection screen: the injection guard (local detector, LLM check when it is
 * unsure and an LLM is configured) over the texts of the request's current turn, judged against
 * the request's system messages (what they protect or restrict makes some requests attacks), and
 * what the deployment's policy does about the riskiest one.
 */

/** The riskiest text of a request's current turn. */
export interface InjectionFinding {
  readonly riskLevel: RiskLevel;
  readonly confidence: number;
  /** Where the verdict came from: the detector (`local`), the LLM check, or the fallback. */
  readonly decidedBy: DecisionSource;
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

/** Roles whose content is data the model will read: scanned as tool results. */
const TOOL_ROLES = new Set(['tool', 'function']);

/** Evidence shown per finding. */
const MAX_SIGNALS = 5;

interface Text {
  readonly text: string;
  readonly source: InjectionSource;
}

/** Scans requests for prompt injections and says what the policy does. */
export class InjectionScreen {
  readonly policy: InjectionSection['policy'];
  readonly #minRank: number;
  readonly #guard: InjectionGuard;
  readonly #llm: boolean;

  constructor(section: InjectionSection, llm?: LlmProvider) {
    this.policy = section.policy;
    this.#minRank = RANK[section.minLevel];
    this.#guard = new InjectionGuard({
      ...(section.guard as object | undefined),
      detector: (section.detector ?? {}) as InjectionConfigInput,
      ...(llm ? { llm } : {}),
    });
    this.#llm = llm !== undefined;
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
    const texts = currentTurn(body);
    if (texts.length === 0) return undefined;
    const system = systemText(body);
    const locals = texts.map(({ text, source }) =>
      this.#guard.detect(text, system === undefined ? { source } : { source, system }),
    );
    const minConfidence = this.#guard.config.minConfidence;
    if (!this.#llm || locals.every((local) => local.confidence >= minConfidence)) {
      return this.#riskiest(locals.map((local) => this.#fromLocal(local)));
    }
    return Promise.all(
      texts.map(({ text, source }, i) => {
        const local = locals[i] as InjectionResult;
        return local.confidence >= minConfidence
          ? this.#fromLocal(local)
          : this.#guard
              .check(text, {
                source,
                signal: cancel.signal,
                ...(system === undefined ? {} : { system }),
              })
              .then((decision) => this.#fromDecision(decision));
      }),
    ).then((findings) => this.#riskiest(findings));
  }

  #fromLocal(local: InjectionResult): InjectionFinding {
    return this.#finding(local.riskLevel, local.confidence, 'local', local);
  }

  #fromDecision(decision: InjectionDecision): InjectionFinding {
    return this.#finding(decision.riskLevel, decision.confidence, decision.source, decision.local);
  }

  #finding(
    riskLevel: RiskLevel,
    confidence: number,
    decidedBy: DecisionSource,
    local: InjectionResult,
  ): InjectionFinding {
    return {
      riskLevel,
      confidence,
      decidedBy,
      text: local.source,
      signals: local.signals.slice(0, MAX_SIGNALS).map(({ kind, label }) => ({ kind, label })),
      acts: RANK[riskLevel] >= this.#minRank,
    };
  }

  #riskiest(findings: readonly InjectionFinding[]): InjectionFinding {
    let top = findings[0] as InjectionFinding;
    for (const finding of findings) {
      const higher = RANK[finding.riskLevel] - RANK[top.riskLevel];
      if (higher > 0 || (higher === 0 && finding.confidence > top.confidence)) top = finding;
    }
    return top;
  }
}

/** The user messages and tool results after the last assistant message. */
function currentTurn(body: ChatRequestBody): Text[] {
  const texts: Text[] = [];
  for (let i = body.messages.length - 1; i >= 0; i--) {
    const message = body.messages[i];
    const role = roleOf(message);
    if (role === 'assistant') break;
    const source: InjectionSource | undefined =
      role === 'user' ? 'user' : TOOL_ROLES.has(role) ? 'tool_result' : undefined;
    if (source === undefined) continue;
    const text = messageText(message);
    if (text.length > 0) texts.push({ text, source });
  }
  return texts;
}

/** The text of the request's system (and developer) messages, or `undefined` when it has none. */
function systemText(body: ChatRequestBody): string | undefined {
  let system = '';
  for (const message of body.messages) {
    const role = roleOf(message);
    if (role !== 'system' && role !== 'developer') continue;
    const text = messageText(message);
    if (text.length > 0) system = system.length === 0 ? text : `${system}\n\n${text}`;
  }
  return system.length === 0 ? undefined : system;
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
