import type {
  LanguageModelV4Middleware,
  LanguageModelV4StreamPart,
  SharedV4ProviderMetadata,
} from '@ai-sdk/provider';
import {
  AdapterInjectionScreen,
  type InjectionFinding,
  type InjectionScreenOptions,
} from '../shared/injection-screen.js';
import { PROVIDER_KEY } from './model.js';
import { chatRequestOf } from './prompt.js';

/**
 * An AI SDK language-model middleware that screens every call for prompt injection before the
 * model sees it: the user's message and the tool results of the current step, judged against the
 * system prompt. At or above `minLevel` (default `high_risk`) it refuses the call with a
 * `PromptInjectionError` (`action: 'throw'`, the default) or lets it through and reports it
 * (`action: 'flag'`: `onFinding`, and `providerMetadata.triage.injection` of the result).
 *
 * ```ts
 * const model = wrapLanguageModel({ model: openai('gpt-4o'), middleware: triageInjectionMiddleware() });
 * ```
 */
export function triageInjectionMiddleware(
  options: InjectionScreenOptions = {},
): LanguageModelV4Middleware {
  const screen = new AdapterInjectionScreen(options);
  const scan = (
    params: Parameters<NonNullable<LanguageModelV4Middleware['wrapGenerate']>>[0]['params'],
  ) => screen.screen(chatRequestOf(params.prompt), params.abortSignal);
  return {
    specificationVersion: 'v4',
    async wrapGenerate({ doGenerate, params }) {
      const finding = await scan(params);
      const result = await doGenerate();
      if (finding === undefined || !finding.acts) return result;
      return { ...result, providerMetadata: withFinding(result.providerMetadata, finding) };
    },
    async wrapStream({ doStream, params }) {
      const finding = await scan(params);
      const result = await doStream();
      if (finding === undefined || !finding.acts) return result;
      const tag = new TransformStream<LanguageModelV4StreamPart, LanguageModelV4StreamPart>({
        transform(part, controller) {
          controller.enqueue(
            part.type === 'finish'
              ? { ...part, providerMetadata: withFinding(part.providerMetadata, finding) }
              : part,
          );
        },
      });
      return { ...result, stream: result.stream.pipeThrough(tag) };
    },
  };
}

/** `providerMetadata.triage.injection`, beside the routing audit when there is one. */
function withFinding(
  metadata: SharedV4ProviderMetadata | undefined,
  finding: InjectionFinding,
): SharedV4ProviderMetadata {
  const injection = finding as unknown as SharedV4ProviderMetadata[string][string];
  return { ...metadata, [PROVIDER_KEY]: { ...metadata?.[PROVIDER_KEY], injection } };
}
