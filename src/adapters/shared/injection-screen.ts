import { ConfigError, TriageError } from '../../core/errors.js';
import { createTriage, type Triage } from '../../triage.js';
import type { Cancellation } from '../../triage-cancellation.js';
import {
  blockReason,
  type InjectionFinding,
  InjectionScreen,
} from '../../triage-injection-screen.js';
import type { TriageChatRequest } from '../../triage-request.js';

export type { InjectionFinding } from '../../triage-injection-screen.js';

/**
 * The injection screen every adapter shares: the front door's injection part over the texts of
 * the current turn (the user's message, tool results), judged against the system prompt, and what
 * the adapter does with a finding at or above `minLevel`: report it (`flag`) or refuse the call
 * (`throw`, a {@link PromptInjectionError}).
 */

/** What an adapter does with a risky text: report it, or refuse the call. */
export type InjectionAction = 'flag' | 'throw';

/** Options of the injection screen of an adapter. */
export interface InjectionScreenOptions {
  /** The front door whose injection part screens (its LLM when unsure). Default: a local one. */
  readonly triage?: Triage;
  /** Default `throw`: a risky call never reaches the model. */
  readonly action?: InjectionAction;
  /** The risk level from which the action is taken. Default `high_risk`. */
  readonly minLevel?: 'suspicious' | 'high_risk';
  /** Told about every finding the action applies to (`flag` and `throw` alike). */
  readonly onFinding?: (finding: InjectionFinding) => void;
}

/**
 * A call refused because a text of its current turn looks like a prompt injection. The message
 * and `finding` say which kind of text and what fired (the matched words, never the text).
 */
export class PromptInjectionError extends TriageError {
  readonly finding: InjectionFinding;

  constructor(finding: InjectionFinding) {
    super('prompt_injection', blockReason(finding));
    this.finding = finding;
  }
}

/** The action of the options (default `throw`); a `ConfigError` for another value. */
export function injectionAction(options: InjectionScreenOptions): InjectionAction {
  const { action = 'throw' } = options;
  if (action !== 'flag' && action !== 'throw') {
    throw new ConfigError('injection screen options', [
      { path: '/action', message: "must be 'flag' or 'throw'" },
    ]);
  }
  return action;
}

const NO_CANCEL: Cancellation = { signal: new AbortController().signal };

/** A screen bound to its options (see the module comment). */
export class AdapterInjectionScreen {
  readonly action: InjectionAction;
  readonly #screen: InjectionScreen;
  readonly #onFinding: ((finding: InjectionFinding) => void) | undefined;

  constructor(options: InjectionScreenOptions = {}) {
    const { minLevel = 'high_risk' } = options;
    this.action = injectionAction(options);
    const triage = options.triage ?? createTriage({ tier: false, context: false });
    this.#screen = new InjectionScreen({ policy: 'block', minLevel }, triage);
    this.#onFinding = options.onFinding;
  }

  /**
   * Screens a request: the riskiest finding (`undefined` when there was no text to read), after
   * reporting it and, with `throw`, refusing the call when it acts. Synchronous unless the
   * detector is unsure and an LLM is configured.
   */
  screen(
    request: TriageChatRequest,
    signal?: AbortSignal,
  ): InjectionFinding | undefined | Promise<InjectionFinding | undefined> {
    const found = this.#screen.scan(
      request as never,
      signal === undefined ? NO_CANCEL : { signal },
    );
    return found instanceof Promise ? found.then((f) => this.#act(f)) : this.#act(found);
  }

  #act(finding: InjectionFinding | undefined): InjectionFinding | undefined {
    if (finding === undefined || !finding.acts) return finding;
    this.#onFinding?.(finding);
    if (this.action === 'throw') throw new PromptInjectionError(finding);
    return finding;
  }
}
