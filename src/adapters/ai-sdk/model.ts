import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamPart,
  LanguageModelV4StreamResult,
  SharedV4ProviderMetadata,
} from '@ai-sdk/provider';
import type { TierDecision } from '../../tier/decision.js';
import { isTier } from '../../tier/tiers.js';
import {
  type RoutingMetadata,
  type TierModels,
  TierRouting,
  type TierRoutingOptions,
  tryInOrder,
} from '../shared/tier-routing.js';
import { chatRequestOf } from './prompt.js';

/** Options of {@link triageModel}. */
export interface TriageModelOptions extends TierRoutingOptions<LanguageModelV4> {
  /** The models of each tier (`{ SIMPLE: cheap, COMPLEX: [strong, backup] }`); at least one. */
  readonly tiers: TierModels<LanguageModelV4>;
  /** The model id the routing model reports. Default `triage/auto`. */
  readonly modelId?: string;
}

/** The key of triage's entry in `providerMetadata` (and of a forced tier in `providerOptions`). */
export const PROVIDER_KEY = 'triage';

/**
 * An AI SDK language model that routes each call by tier: it decides the tier of the prompt (the
 * tier router of the front door), delegates `doGenerate` / `doStream` to the tier's model, moves
 * down the tier's fallback chain when a model fails before its first chunk, and puts the decision
 * in `providerMetadata.triage`. A call forces a tier with `providerOptions: { triage: { tier:
 * 'COMPLEX' } }`.
 *
 * ```ts
 * const model = triageModel({ tiers: { SIMPLE: openai('gpt-4o-mini'), COMPLEX: openai('gpt-4o') } });
 * const { text, providerMetadata } = await generateText({ model, prompt: 'hi' });
 * providerMetadata?.triage?.tier; // 'SIMPLE'
 * ```
 */
export function triageModel(options: TriageModelOptions): LanguageModelV4 {
  return new TriageLanguageModel(options);
}

class TriageLanguageModel implements LanguageModelV4 {
  readonly specificationVersion = 'v4';
  readonly provider = PROVIDER_KEY;
  readonly modelId: string;
  // The routed model is known per call only: let the SDK download URLs, every model accepts data.
  readonly supportedUrls: Record<string, RegExp[]> = {};
  readonly #routing: TierRouting<LanguageModelV4>;

  constructor(options: TriageModelOptions) {
    this.#routing = new TierRouting(options, 'triageModel options', modelName);
    this.modelId = options.modelId ?? 'triage/auto';
  }

  async doGenerate(call: LanguageModelV4CallOptions): Promise<LanguageModelV4GenerateResult> {
    const decision = await this.#decide(call);
    const attempted = await tryInOrder(
      this.#routing.targets.of(decision.tier),
      (target) => target.model.doGenerate(call),
      this.#routing.fallback(call.abortSignal),
    );
    const metadata = this.#routing.audit(decision, attempted);
    const result = attempted.value;
    return { ...result, providerMetadata: withTriage(result.providerMetadata, metadata) };
  }

  async doStream(call: LanguageModelV4CallOptions): Promise<LanguageModelV4StreamResult> {
    const decision = await this.#decide(call);
    const attempted = await tryInOrder(
      this.#routing.targets.of(decision.tier),
      (target) => started(target.model, call),
      this.#routing.fallback(call.abortSignal),
    );
    const metadata = this.#routing.audit(decision, attempted);
    const { result, head, reader } = attempted.value;
    return { ...result, stream: resumed(head, reader, metadata) };
  }

  #decide(call: LanguageModelV4CallOptions): TierDecision | Promise<TierDecision> {
    const forced = call.providerOptions?.[PROVIDER_KEY]?.tier;
    const model = isTier(forced) ? `triage/${forced.toLowerCase()}` : undefined;
    return this.#routing.decide(chatRequestOf(call.prompt, model), call.abortSignal);
  }
}

function modelName(model: LanguageModelV4): string {
  return `${model.provider}:${model.modelId}`;
}

function withTriage(
  metadata: SharedV4ProviderMetadata | undefined,
  triage: RoutingMetadata,
): SharedV4ProviderMetadata {
  return { ...metadata, [PROVIDER_KEY]: triage as unknown as SharedV4ProviderMetadata[string] };
}

/** Parts that come before the answer itself: a failure after them is still "before the first chunk". */
function isPreamble(part: LanguageModelV4StreamPart): boolean {
  return part.type === 'stream-start' || part.type === 'response-metadata' || part.type === 'raw';
}

interface StartedStream {
  readonly result: LanguageModelV4StreamResult;
  readonly head: LanguageModelV4StreamPart[];
  readonly reader: ReadableStreamDefaultReader<LanguageModelV4StreamPart>;
}

/**
 * Starts a stream and reads it up to its first chunk of the answer: an error before it (a failed
 * request, an error part) fails the attempt so that the next model is tried; after it, the
 * stream is the caller's, errors included.
 */
async function started(
  model: LanguageModelV4,
  call: LanguageModelV4CallOptions,
): Promise<StartedStream> {
  const result = await model.doStream(call);
  const reader = result.stream.getReader();
  const head: LanguageModelV4StreamPart[] = [];
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (value.type === 'error') throw value.error;
      head.push(value);
      if (!isPreamble(value)) break;
    }
  } catch (error) {
    reader.cancel(error).catch(() => {});
    throw error;
  }
  return { result, head, reader };
}

/** The stream given to the caller: the parts read ahead, then the rest, the audit on `finish`. */
function resumed(
  head: LanguageModelV4StreamPart[],
  reader: ReadableStreamDefaultReader<LanguageModelV4StreamPart>,
  metadata: RoutingMetadata,
): ReadableStream<LanguageModelV4StreamPart> {
  const tag = (part: LanguageModelV4StreamPart): LanguageModelV4StreamPart =>
    part.type === 'finish'
      ? { ...part, providerMetadata: withTriage(part.providerMetadata, metadata) }
      : part;
  return new ReadableStream<LanguageModelV4StreamPart>({
    start(controller) {
      for (const part of head) controller.enqueue(tag(part));
    },
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(tag(value));
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}
