import type { CompletionRequest, CompletionResponse, LlmProvider } from './types.js';

/**
 * A provider whose default model can be changed while it runs (the original design: `/router classifier
 * <model>` switches the classifier model without a restart). Calls that name a model keep it;
 * the others use the current one. `model` always reads the current one, so that caches keyed by
 * it (the tier router's, the completion cache) never mix two models' answers.
 */
export interface SwitchableProvider extends LlmProvider {
  /** The model calls use now. */
  readonly model: string;
  /** The model it was built with. */
  readonly configuredModel: string;
  /** Makes `model` the default of every later call. */
  switchModel(model: string): void;
  /** Back to the model it was built with. */
  resetModel(): void;
}

/** Wraps `provider` so that its default model can be switched (see {@link SwitchableProvider}). */
export function withModelSwitch(provider: LlmProvider): SwitchableProvider {
  const configuredModel = provider.model;
  let current = configuredModel;
  return {
    id: provider.id,
    configuredModel,
    get model() {
      return current;
    },
    ...(provider.timeoutMs === undefined ? {} : { timeoutMs: provider.timeoutMs }),
    switchModel(model: string) {
      current = model;
    },
    resetModel() {
      current = configuredModel;
    },
    complete(request: CompletionRequest): Promise<CompletionResponse> {
      return provider.complete(
        request.model === undefined ? { ...request, model: current } : request,
      );
    },
    // Closing is the owner's: the wrapped provider may be shared with other parts.
  };
}
