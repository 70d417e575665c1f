import Type, { type Static } from 'typebox';
import { DEFAULT_CERTAINTY_THRESHOLD } from '../core/certainty.js';
import { ConfigError } from '../core/errors.js';
import { compileConfig } from '../core/validate.js';
import { IDENTIFIER_PATTERN } from './manifest.js';

/**
 * The pipeline's tunable numbers and choices, each with a named default (the original design,
 * corrected), validated by one TypeBox schema whether they come from a file or from code.
 */

/**
 * Defaults of the worker pool. Concurrency is 8, not the source's 7 (a departure from the original design): there are eight
 * stock classifiers, and with seven workers the eighth waits for a free one, so every run costs two
 * LLM round trips instead of one (measured: 206 ms instead of 109 ms with 100 ms answers).
 */
export const DEFAULT_RUNNER = Object.freeze({
  concurrency: 8,
  attemptTimeoutMs: 15_000,
  retries: 1,
  temperature: 0,
  seed: 0,
  maxTokens: 512,
});

const Identifier = Type.String({ pattern: IDENTIFIER_PATTERN });

/** The worker pool and the classifiers it runs. */
export const RunnerSettingsSchema = Type.Object(
  {
    /** Classifiers running at once. */
    concurrency: Type.Integer({ minimum: 1, maximum: 64, default: DEFAULT_RUNNER.concurrency }),
    /** Time limit of one attempt of one classifier, in milliseconds. */
    attemptTimeoutMs: Type.Integer({
      minimum: 1,
      maximum: 600_000,
      default: DEFAULT_RUNNER.attemptTimeoutMs,
    }),
    /** Attempts after a failed one (timeout, error or invalid output). */
    retries: Type.Integer({ minimum: 0, maximum: 5, default: DEFAULT_RUNNER.retries }),
    /**
     * Time limit of the whole run, in milliseconds: classifiers not done by then fall back with
     * reason `timeout`. Absent: only the per-attempt limit applies.
     */
    runTimeoutMs: Type.Optional(Type.Integer({ minimum: 1, maximum: 3_600_000 })),
    temperature: Type.Number({ minimum: 0, maximum: 2, default: DEFAULT_RUNNER.temperature }),
    /** Sampling seed, for backends that support reproducible answers. */
    seed: Type.Integer({ default: DEFAULT_RUNNER.seed }),
    /** Most tokens a classifier may generate, unless its manifest says otherwise. */
    maxTokens: Type.Integer({ minimum: 16, maximum: 32_768, default: DEFAULT_RUNNER.maxTokens }),
    /** The model of each classifier, by name, overriding the manifest and the provider default. */
    models: Type.Record(Identifier, Type.String({ minLength: 1 }), {
      additionalProperties: false,
      default: {},
    }),
    /** Run the eight stock classifiers. */
    stockClassifiers: Type.Boolean({ default: true }),
    /** Directories of custom classifiers (one sub-folder per classifier). */
    classifierDirs: Type.Array(Type.String({ minLength: 1 }), { default: [] }),
    /** Classifiers not to run, by name. */
    disable: Type.Array(Identifier, { uniqueItems: true, default: [] }),
  },
  { additionalProperties: false, default: {} },
);

/** The aggregator. */
export const AggregatorSettingsSchema = Type.Object(
  {
    /** The score a reserved-field value needs to be used. */
    certaintyThreshold: Type.Number({
      minimum: 0,
      maximum: 1,
      default: DEFAULT_CERTAINTY_THRESHOLD,
    }),
    /**
     * @deprecated open-classify's former name of `certaintyThreshold`, still read (with a
     * deprecation warning) so that its configuration files work unchanged.
     */
    confidenceThreshold: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
  },
  { additionalProperties: false, default: {} },
);

/** The input budgets. */
export const InputSettingsSchema = Type.Object(
  {
    targetChars: Type.Integer({ minimum: 200, maximum: 1_000_000, default: 5000 }),
    historyChars: Type.Integer({ minimum: 0, maximum: 1_000_000, default: 5000 }),
    historyMessages: Type.Integer({ minimum: 0, maximum: 1000, default: 20 }),
  },
  { additionalProperties: false, default: {} },
);

/** Everything tunable about a pipeline. */
export const PipelineSettingsSchema = Type.Object(
  {
    runner: RunnerSettingsSchema,
    aggregator: AggregatorSettingsSchema,
    input: InputSettingsSchema,
  },
  { additionalProperties: false },
);

/** Validated settings, defaults filled in. */
export type PipelineSettings = Static<typeof PipelineSettingsSchema>;

/** The settings as given: every field optional. */
export interface PipelineSettingsInput {
  readonly runner?: Partial<PipelineSettings['runner']>;
  readonly aggregator?: Partial<PipelineSettings['aggregator']>;
  readonly input?: Partial<PipelineSettings['input']>;
}

const validateSettings = compileConfig(PipelineSettingsSchema, 'pipeline settings');

/** Validates settings and fills in defaults; throws a `ConfigError` naming each bad field. */
export function pipelineSettings(
  input: PipelineSettingsInput = {},
  source = 'pipeline settings',
): PipelineSettings {
  return validateSettings(withoutDeprecatedNames(structuredClone(input), source), source);
}

/** The code of the warning a deprecated setting's name gives. */
export const PIPELINE_DEPRECATED_SETTING = 'TRIAGE_PIPELINE_DEPRECATED_SETTING';

/**
 * @internal `aggregator.confidenceThreshold` (open-classify's deprecated alias) read as
 * `certaintyThreshold`, with a deprecation warning; both at once is an error.
 */
export function withoutDeprecatedNames(
  input: PipelineSettingsInput,
  source: string,
): PipelineSettingsInput {
  const aggregator = input.aggregator as
    | (PipelineSettingsInput['aggregator'] & { confidenceThreshold?: unknown })
    | undefined;
  if (aggregator?.confidenceThreshold === undefined) return input;
  const { confidenceThreshold, ...rest } = aggregator;
  if (rest.certaintyThreshold !== undefined) {
    throw new ConfigError(source, [
      {
        path: '/aggregator/confidenceThreshold',
        message: 'is the deprecated name of certaintyThreshold: give certaintyThreshold only',
      },
    ]);
  }
  process.emitWarning(
    `${source}: aggregator.confidenceThreshold is deprecated, read as aggregator.certaintyThreshold`,
    { type: 'DeprecationWarning', code: PIPELINE_DEPRECATED_SETTING },
  );
  return {
    ...input,
    aggregator: { ...rest, certaintyThreshold: confidenceThreshold as number },
  };
}
