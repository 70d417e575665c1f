import type { TierDecision } from '../tier/decision.js';
import { TierRequestError } from '../tier/extract.js';
import type { Triage } from '../triage.js';
import { deadlineOf } from '../triage-cancellation.js';
import { type TriageRequest, TriageRequestError } from '../triage-request.js';
import type { ChatRequestBody, TierChoice, TierRouterPort } from './decide.js';
import { HttpError } from './errors.js';

/** The model id that asks for classification, before any forced-model prefix. */
const AUTO = 'auto';

/**
 * The tier part of the front door as the server uses it: `auto` (and `<prefix>auto`, e.g.
 * `triage/auto`) is classified, forced-tier ids are taken as they are, and the decision is
 * synchronous unless the scorer is unsure and an LLM check is configured (only then is the
 * request's signal read). A malformed request (e.g. a message that is not an object) is a 400.
 */
export function tierRouterPort(triage: Triage): TierRouterPort {
  const router = triage.tier;
  if (router === undefined) throw new TypeError('tierRouterPort: the triage has no tier part');
  const { prefixes, tiers } = router.options.forcedModels;
  const autoIds = new Set([AUTO, ...prefixes.map((prefix) => `${prefix}${AUTO}`.toLowerCase())]);
  const forcedIds = Object.keys(tiers);
  const modelIds = [
    AUTO,
    ...prefixes.map((prefix) => `${prefix}${AUTO}`),
    ...forcedIds,
    ...prefixes.flatMap((prefix) => forcedIds.map((id) => `${prefix}${id}`)),
  ];
  return {
    modelIds,
    accepts: (model) =>
      autoIds.has(model.trim().toLowerCase()) || router.forcedTier(model) !== undefined,
    decide(body, cancel) {
      const request = body as ChatRequestBody as TriageRequest;
      let local: TierDecision;
      try {
        local = triage.classify(request, TIER).tier!;
      } catch (error) {
        throw asHttpError(error);
      }
      if (!local.needsLlm) return choiceOf(local, false);
      return triage
        .decide(request, { ...TIER, signal: cancel.signal, ...deadlineOf(cancel) })
        .then((checked) => choiceOf(checked.tier!, true));
    },
  };
}

const TIER = { parts: ['tier'] } as const;

/** The tier decision as the server sees it. */
function choiceOf(decision: TierDecision, llmChecked: boolean): TierChoice {
  const byLlm = decision.source === 'llm' || decision.source === 'cached';
  return {
    tier: decision.tier,
    chain: decision.fallbackChain,
    forced: decision.forced,
    confidence: decision.confidence,
    ...(decision.score === null ? {} : { score: decision.score }),
    signals: decision.signals,
    source: decision.source,
    fallbackCause: decision.fallbackCause,
    llmChecked,
    llmOverrode: byLlm && decision.tier !== decision.localTier,
    llmMs: decision.llmMs,
  };
}

function asHttpError(error: unknown): unknown {
  if (!(error instanceof TierRequestError || error instanceof TriageRequestError)) return error;
  return new HttpError(400, 'invalid_messages', error.message, { param: 'messages' });
}
