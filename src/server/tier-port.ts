import type { TierDecision } from '../tier/decision.js';
import type { TierRequest } from '../tier/extract.js';
import { TierRequestError } from '../tier/extract.js';
import type { TierRouter } from '../tier/router.js';
import type { ChatRequestBody, TierChoice, TierRouterPort } from './decide.js';
import { HttpError } from './errors.js';

/** The model id that asks for classification, before any forced-model prefix. */
const AUTO = 'auto';

/**
 * The tier router as the server uses it: `auto` (and `<prefix>auto`, e.g. `triage/auto`) is
 * classified, forced-tier ids are taken as they are, and the decision is synchronous unless the
 * scorer is unsure and an LLM check is configured (only then is the request's signal read).
 * A malformed request (e.g. a message that is not an object) is a 400.
 */
export function tierRouterPort(router: TierRouter): TierRouterPort {
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
      const request = body as ChatRequestBody as TierRequest;
      let decision: TierDecision;
      try {
        decision = router.classify(request);
      } catch (error) {
        throw asHttpError(error);
      }
      if (!decision.needsLlm) return choiceOf(decision, false);
      return router.decide(request, cancel.signal).then((checked) => choiceOf(checked, true));
    },
  };
}

function choiceOf(decision: TierDecision, llmChecked: boolean): TierChoice {
  return {
    tier: decision.tier,
    chain: decision.fallbackChain,
    forced: decision.forced,
    confidence: decision.confidence,
    ...(decision.score === undefined ? {} : { score: decision.score }),
    signals: decision.signals,
    source: decision.source,
    llmChecked,
    llmOverrode: decision.source === 'llm' && decision.tier !== decision.localTier,
    llmMs: decision.llmMs,
  };
}

function asHttpError(error: unknown): unknown {
  if (!(error instanceof TierRequestError)) return error;
  return new HttpError(400, 'invalid_messages', error.message, { param: 'messages' });
}
