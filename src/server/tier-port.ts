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
  return new RouterChoice(decision, llmChecked);
}

/**
 * The tier router's decision as the server sees it. Its `signals` are read from the decision
 * when asked for: the tier router writes them on first access, and a proxied chat request never
 * asks (only `POST /v1/route` shows them), so most requests never pay for them.
 */
class RouterChoice implements TierChoice {
  readonly tier: TierChoice['tier'];
  readonly chain: TierChoice['chain'];
  readonly forced: boolean;
  readonly confidence: number;
  readonly score?: number;
  readonly source: TierChoice['source'];
  readonly llmChecked: boolean;
  readonly llmOverrode: boolean;
  readonly llmMs: number;
  readonly #decision: TierDecision;

  constructor(decision: TierDecision, llmChecked: boolean) {
    this.tier = decision.tier;
    this.chain = decision.fallbackChain;
    this.forced = decision.forced;
    this.confidence = decision.confidence;
    this.score = decision.score;
    this.source = decision.source;
    this.llmChecked = llmChecked;
    this.llmOverrode = decision.source === 'llm' && decision.tier !== decision.localTier;
    this.llmMs = decision.llmMs;
    this.#decision = decision;
  }

  get signals(): readonly string[] {
    return this.#decision.signals;
  }
}

function asHttpError(error: unknown): unknown {
  if (!(error instanceof TierRequestError)) return error;
  return new HttpError(400, 'invalid_messages', error.message, { param: 'messages' });
}
