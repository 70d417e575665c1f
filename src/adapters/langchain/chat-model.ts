import type { CallbackManagerForLLMRun } from '@langchain/core/callbacks/manager';
import type { BaseLanguageModelInput } from '@langchain/core/language_models/base';
import {
  BaseChatModel,
  type BaseChatModelCallOptions,
  type BaseChatModelParams,
  type BindToolsInput,
} from '@langchain/core/language_models/chat_models';
import { type AIMessageChunk, type BaseMessage, SystemMessage } from '@langchain/core/messages';
import { ChatGenerationChunk, type ChatResult } from '@langchain/core/outputs';
import type { Runnable } from '@langchain/core/runnables';
import {
  type TierModels,
  TierRouting,
  type TierRoutingOptions,
  tryInOrder,
} from '../shared/tier-routing.js';
import type { TriageGuidanceHandler } from './guidance-handler.js';
import { chatRequestOf } from './messages.js';
import { TIER_MODEL_TAG } from './tier-model-tag.js';

/** A tier's model: a chat model, or one with tools bound (`model.bindTools(tools)`). */
export type TierChatModel = Runnable<BaseLanguageModelInput, AIMessageChunk>;

/** Fields of {@link TriageChatModel}. */
export interface TriageChatModelFields
  extends BaseChatModelParams,
    TierRoutingOptions<TierChatModel> {
  /** The models of each tier (`{ SIMPLE: new ChatOpenAI({ model: 'gpt-4o-mini' }), … }`). */
  readonly tiers: TierModels<TierChatModel>;
  /** Guidance that fired since the last call is added to each call as a system message. */
  readonly guidance?: TriageGuidanceHandler;
}

/**
 * A LangChain chat model that routes each call by tier over the tier models given: the messages
 * decide the tier, the tier's model answers (`invoke` and `stream`), the tier's fallback chain is
 * tried when a model fails before its first chunk, and `response_metadata.triage` of the answer
 * says what was decided. `bindTools` binds the tools to every tier model, so it works inside
 * agents (LangGraph's `createReactAgent`, `ToolNode` loops).
 *
 * ```ts
 * const model = new TriageChatModel({ tiers: { SIMPLE: small, COMPLEX: large } });
 * const answer = await model.invoke('hi');
 * answer.response_metadata.triage.tier; // 'SIMPLE'
 * ```
 */
export class TriageChatModel extends BaseChatModel<BaseChatModelCallOptions, AIMessageChunk> {
  readonly #fields: TriageChatModelFields;
  readonly #routing: TierRouting<TierChatModel>;

  constructor(fields: TriageChatModelFields) {
    super(fields);
    this.#fields = fields;
    this.#routing = new TierRouting(fields, 'TriageChatModel fields', modelName);
  }

  static override lc_name(): string {
    return 'TriageChatModel';
  }

  _llmType(): string {
    return 'triage';
  }

  override bindTools(
    tools: BindToolsInput[],
    kwargs?: Partial<BaseChatModelCallOptions>,
  ): TriageChatModel {
    const tiers: Record<string, TierChatModel | TierChatModel[]> = {};
    for (const [tier, models] of Object.entries(this.#fields.tiers)) {
      const bind = (model: TierChatModel) => {
        const bindable = model as unknown as BaseChatModel;
        if (typeof bindable.bindTools !== 'function') {
          throw new TypeError(`TriageChatModel: the ${tier} model cannot bind tools`);
        }
        return bindable.bindTools(tools, kwargs) as TierChatModel;
      };
      tiers[tier] = Array.isArray(models) ? models.map(bind) : bind(models as TierChatModel);
    }
    return new TriageChatModel({ ...this.#fields, tiers, triage: this.#routing.triage });
  }

  async _generate(
    messages: BaseMessage[],
    options: this['ParsedCallOptions'],
    _runManager?: CallbackManagerForLLMRun,
  ): Promise<ChatResult> {
    const prompt = await this.#withGuidance(messages);
    const decision = await this.#routing.decide(chatRequestOf(prompt), options.signal);
    const config = tierModelConfig(options);
    const attempted = await tryInOrder(
      this.#routing.targets.of(decision.tier),
      (target) => target.model.invoke(prompt, config),
      this.#routing.fallback(options.signal),
    );
    const message = attempted.value;
    const triage = this.#routing.audit(decision, attempted);
    message.response_metadata = { ...message.response_metadata, triage };
    return { generations: [{ text: message.text, message }], llmOutput: { triage } };
  }

  override async *_streamResponseChunks(
    messages: BaseMessage[],
    options: this['ParsedCallOptions'],
    runManager?: CallbackManagerForLLMRun,
  ): AsyncGenerator<ChatGenerationChunk> {
    const prompt = await this.#withGuidance(messages);
    const decision = await this.#routing.decide(chatRequestOf(prompt), options.signal);
    const config = tierModelConfig(options);
    const attempted = await tryInOrder(
      this.#routing.targets.of(decision.tier),
      async (target) => {
        const chunks = (await target.model.stream(prompt, config))[Symbol.asyncIterator]();
        return { chunks, first: await chunks.next() }; // a failure before it moves on
      },
      this.#routing.fallback(options.signal),
    );
    const triage = this.#routing.audit(decision, attempted);
    const { chunks, first } = attempted.value;
    let tagged = false;
    for (let next = first; !next.done; next = await chunks.next()) {
      const message = next.value;
      if (!tagged) {
        message.response_metadata = { ...message.response_metadata, triage };
        tagged = true;
      }
      const chunk = new ChatGenerationChunk({ text: message.text, message });
      await runManager?.handleLLMNewToken(chunk.text, undefined, undefined, undefined, undefined, {
        chunk,
      });
      yield chunk;
    }
  }

  async #withGuidance(messages: BaseMessage[]): Promise<BaseMessage[]> {
    const text = await this.#fields.guidance?.nudge();
    return text === undefined ? messages : [...messages, new SystemMessage(text)];
  }
}

function tierModelConfig(options: BaseChatModelCallOptions) {
  return { signal: options.signal, tags: [TIER_MODEL_TAG] };
}

function modelName(model: TierChatModel): string {
  const named = model as unknown as { model?: unknown; bound?: { model?: unknown } };
  const name = named.model ?? named.bound?.model;
  if (typeof name === 'string') return name;
  return typeof model.getName === 'function' ? model.getName() : 'model';
}
