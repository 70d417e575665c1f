import type { Logger } from 'pino';
import type { SwitchableProvider } from '../llm/model-switch.js';
import { HttpError } from './errors.js';

/**
 * The tier router's classifier model, switchable while the server runs (the original design's
 * `/router classifier <model>`), by the chat command (router-command.ts) or the admin endpoint
 * (admin-endpoint.ts). The switch changes the model the `llm` provider is asked with, for the
 * tier check only (the injection and context checks keep the configured model); it lasts until
 * the server stops, and with `--workers` every worker makes it (serve-workers.ts).
 */

/** What `/router classifier` and `GET /admin/classifier` report. */
export interface ClassifierStatus {
  /** Whether the tier router has an LLM check. */
  readonly enabled: boolean;
  /** The model asked now (`null` without an LLM check). */
  readonly model: string | null;
  /** The model of the configuration. */
  readonly configured_model: string | null;
  /** The provider asked (`llm.id`). */
  readonly provider: string | null;
  /** Why there is no check, when there is none. */
  readonly reason: string | null;
}

/** A model id: printable, no white space, at most 200 characters. */
const MODEL_ID = /^[^\s\u0000-\u001f\u007f-\u009f]{1,200}$/;

export class ClassifierSwitch {
  readonly #provider: SwitchableProvider | undefined;
  readonly #offReason: string;
  readonly #logger: Logger;

  constructor(provider: SwitchableProvider | undefined, offReason: string, logger: Logger) {
    this.#provider = provider;
    this.#offReason = offReason;
    this.#logger = logger;
  }

  status(): ClassifierStatus {
    const provider = this.#provider;
    return {
      enabled: provider !== undefined,
      model: provider?.model ?? null,
      configured_model: provider?.configuredModel ?? null,
      provider: provider?.id ?? null,
      reason: provider === undefined ? this.#offReason : null,
    };
  }

  /**
   * Called after every switch made here (`null`: a reset), so that the other processes of a
   * `--workers` cluster make it too.
   */
  onSwitch: ((model: string | null) => void) | undefined;

  /**
   * Switches to `model` (`reset` or `null`: back to the configured one). Throws a 409 without an
   * LLM check, a 400 for a model id that is not one.
   */
  switchTo(model: string | null, by: 'chat' | 'admin'): ClassifierStatus {
    const provider = this.#provider;
    if (provider === undefined) {
      throw new HttpError(
        409,
        'classifier_off',
        `there is no classifier to switch: ${this.#offReason}`,
      );
    }
    const reset = model === null || model === 'reset';
    if (!reset && (typeof model !== 'string' || !MODEL_ID.test(model))) {
      throw new HttpError(
        400,
        'invalid_model',
        'model must be a model id: 1 to 200 printable characters, no white space',
        { param: 'model' },
      );
    }
    this.apply(reset ? null : model);
    this.#logger.info(
      { classifier: provider.model, provider: provider.id, by },
      'tier classifier model switched',
    );
    this.onSwitch?.(reset ? null : provider.model);
    return this.status();
  }

  /** Makes a switch another process made (`null`: a reset), without telling anyone. */
  apply(model: string | null): void {
    const provider = this.#provider;
    if (provider === undefined) return;
    if (model === null) provider.resetModel();
    else if (MODEL_ID.test(model)) provider.switchModel(model);
  }
}

/** Why the tier router has no LLM check, in a sentence. */
export function classifierOffReason(llmConfigured: boolean, unavailable: string | null): string {
  if (unavailable !== null) return unavailable;
  return llmConfigured
    ? 'the tier router is not built from this configuration'
    : 'no LLM is configured (add an llm section)';
}
