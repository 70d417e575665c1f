import type { CompletionRequest, CompletionResponse, LlmProvider } from '../llm/types.js';

/**
 * An in-process LLM provider for the selection tests: answers each classification from a script
 * keyed by capability name, records every request and the most calls it had in flight at once.
 * (Tests over real HTTP use the fake LLM server of `src/testing` once it is on main.)
 */

/** What the script does for one capability: answer, fail, or hang until aborted. */
export type ScriptedAnswer =
  | { readonly isMatch: boolean; readonly reason?: string }
  | { readonly reply: unknown }
  | { readonly text: string }
  | { readonly fail: Error }
  | { readonly hang: true };

export class ScriptedProvider implements LlmProvider {
  readonly id = 'scripted';
  readonly model = 'scripted-model';
  readonly requests: CompletionRequest[] = [];
  inFlight = 0;
  maxInFlight = 0;

  constructor(
    private readonly script: (capability: string, task: string) => ScriptedAnswer,
    private readonly delayMs = 5,
  ) {}

  /** The capabilities asked about, in the order the calls started. */
  get asked(): string[] {
    return this.requests.map((request) => capabilityOf(request));
  }

  async complete(request: CompletionRequest): Promise<CompletionResponse> {
    this.requests.push(request);
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      const answer = this.script(capabilityOf(request), request.messages.at(-1)?.content ?? '');
      if ('hang' in answer) {
        return await new Promise<never>((_resolve, reject) => {
          request.signal?.addEventListener('abort', () => reject(request.signal?.reason), {
            once: true,
          });
        });
      }
      await new Promise((resolve) => setTimeout(resolve, this.delayMs));
      if ('fail' in answer) throw answer.fail;
      if ('text' in answer)
        return { text: answer.text, model: this.model, latencyMs: this.delayMs };
      const json =
        'reply' in answer
          ? answer.reply
          : { is_match: answer.isMatch, reason: answer.reason ?? '' };
      return { text: JSON.stringify(json), json, model: this.model, latencyMs: this.delayMs };
    } finally {
      this.inFlight--;
    }
  }
}

/** The capability a classification prompt asks about. */
export function capabilityOf(request: CompletionRequest): string {
  return /^Capability: (.+)$/m.exec(request.system ?? '')?.[1] ?? '?';
}
