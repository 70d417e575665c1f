import { extractPrompt, type TierRequest } from '../tier/extract.js';
import type { Triage, TriageDecision } from '../triage.js';
import { lastUserText, messageText, type TriageRequest } from '../triage-request.js';
import { lexiconSpans, MAX_SPANS, type MatchSpan, phraseSpans } from './spans.js';

/**
 * The console playground's answer: every decision of the front door for one request, with the
 * spans of text behind each, and the models the tier would be sent to. Plain JSON.
 */

/** The text a part read, and what matched in it. */
export interface ExplainedText {
  readonly text: string;
  readonly spans: readonly MatchSpan[];
}

/** A model of the chain a tier would be sent along. */
export interface ChainModel {
  readonly tier: string;
  readonly provider: string;
  readonly model: string;
}

/** The playground's view of a request. */
export interface Explanation {
  readonly tier:
    | (Record<string, unknown> & { readonly read: ExplainedText; models: readonly ChainModel[] })
    | null;
  readonly injection: (Record<string, unknown> & { readonly read: ExplainedText }) | null;
  readonly context: (Record<string, unknown> & { readonly read: ExplainedText }) | null;
  readonly capabilities: Record<string, unknown> | null;
  readonly elapsedMs: number;
}

/** What {@link explainRequest} needs besides the request. */
export interface ExplainOptions {
  /** The models configured for a tier chain, in order. */
  readonly chainOf?: (tiers: readonly string[]) => readonly ChainModel[];
}

/**
 * Explains a decision already made for `request` (by `classify`, or `decide` when the LLM was
 * asked): the same decision, plus where its signals are in the text.
 */
export function explainDecision(
  triage: Triage,
  request: TriageRequest,
  decision: TriageDecision,
  options: ExplainOptions = {},
): Explanation {
  const { tier, injection, context, capabilities } = decision;
  return {
    tier: tier && {
      ...tier,
      models: options.chainOf?.(tier.fallbackChain) ?? [],
      read: tierText(triage, request),
    },
    injection: injection && {
      ...injection,
      read: injectionText(request, injection),
    },
    context: context && { ...context, read: contextText(triage, request) },
    capabilities: capabilities && {
      selected: capabilities.selected,
      bypass: capabilities.bypass,
      decisions: capabilities.decisions.map((d) => ({
        name: d.name,
        selected: d.selected,
        confidence: d.confidence,
        source: d.source,
        decidedBy: d.decidedBy,
        ...(d.score === undefined ? {} : { score: d.score }),
      })),
    },
    elapsedMs: decision.elapsedMs,
  };
}

function tierText(triage: Triage, request: TriageRequest): ExplainedText {
  const router = triage.tier;
  if (router === undefined) return { text: '', spans: [] };
  const { text } = extractPrompt(request as TierRequest | string, router.options.extraction);
  return { text, spans: lexiconSpans(router.scorer.lexicon, text) };
}

function injectionText(
  request: TriageRequest,
  injection: NonNullable<TriageDecision['injection']>,
): ExplainedText {
  const text =
    typeof request === 'string' || injection.messageIndex === null
      ? typeof request === 'string'
        ? request
        : lastUserText(request)
      : messageText(request.messages[injection.messageIndex]);
  const spans = injection.local.signals
    .filter((s) => s.end > s.start && s.end <= text.length)
    .slice(0, MAX_SPANS)
    .map((s) => ({ start: s.start, end: s.end, label: s.kind, match: s.label }));
  return { text, spans };
}

function contextText(triage: Triage, request: TriageRequest): ExplainedText {
  const router = triage.context;
  if (router === undefined) return { text: '', spans: [] };
  const text = lastUserText(request, router.config.maxQuestionChars);
  const { evidence } = router.explain(text);
  const phrases = Object.entries(evidence).flatMap(([label, list]) =>
    list.map((phrase) => ({ label, phrase })),
  );
  return { text, spans: phraseSpans(text, phrases) };
}
