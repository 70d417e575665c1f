import pLimit from 'p-limit';
import { certaintyScore } from '../core/certainty.js';
import { withDeadline } from '../core/deadline.js';
import { DecisionTimeoutError, describeError, isTimeoutError } from '../core/errors.js';
import { type FallbackCause, fallbackCauseOf, Hybrid } from '../core/hybrid.js';
import { askJson } from '../llm/ask.js';
import { LlmInvalidOutputError } from '../llm/errors.js';
import type { LlmProvider } from '../llm/types.js';
import type { ClassifierRun } from './aggregate.js';
import type { PipelineClassifier } from './classifier.js';
import type { PreparedInput } from './input.js';
import { type LocalStage, samePayload } from './local-stage.js';
import { checkOutput } from './output.js';
import type { PipelineSettings } from './settings.js';
import type { ClassifierStatus } from './status.js';
import type { ClassifierOutput } from './types.js';

/**
 * The worker pool (the original design, corrected): classifiers start in registry order, at most
 * `concurrency` at once; each attempt has its own time limit; a failed attempt (timeout, error,
 * invalid output) is retried `retries` times; a classifier that still fails gets its manifest's
 * fallback output, with status `{source: "fallback", reason: "timeout" | "error"}`. A run time
 * limit, when set, turns every classifier not done by then into a `timeout` fallback. An external
 * abort stops everything: requests in flight are cancelled, classifiers not started never start,
 * and the run rejects with the signal's reason.
 *
 * Retries here come on top of the provider's own retries of transient HTTP failures (which
 * happen inside one attempt's time limit); they cover what the provider does not retry, such as
 * an invalid output.
 */

/** One classifier's work in one run. */
export interface ClassifierTask {
  readonly classifier: PipelineClassifier;
  readonly input: PreparedInput;
  /** The rendered conversation (the user turn), shared by all classifiers of the run. */
  readonly conversation: string;
  /** Attempts made so far. */
  attempts: number;
  ignored: readonly string[];
  /** Why the model could not be used, when a hybrid fell back. */
  failure?: {
    readonly reason: 'timeout' | 'error';
    readonly cause: FallbackCause;
    readonly error: string;
  };
}

/** What asking the model needs. */
type Asker = Pick<RunEnvironment, 'provider' | 'runner'>;

/** What a run needs besides the classifiers. */
export interface RunEnvironment {
  readonly provider: LlmProvider;
  readonly runner: PipelineSettings['runner'];
  /** Hybrids of the classifiers that have a local stage, by name. */
  readonly hybrids: ReadonlyMap<string, Hybrid<ClassifierTask, ClassifierOutput>>;
}

/** Runs `classifiers` on `input`; resolves with their runs in the same order. */
export async function runClassifiers(
  env: RunEnvironment,
  classifiers: readonly PipelineClassifier[],
  input: PreparedInput,
  conversation: string,
  signal?: AbortSignal,
  deadlineMs?: number,
): Promise<ClassifierRun[]> {
  signal?.throwIfAborted();
  const { concurrency } = env.runner;
  // The run's own time limit, or the caller's deadline when it comes first.
  const limits = [env.runner.runTimeoutMs, deadlineMs].filter((ms) => ms !== undefined);
  const runTimeoutMs = limits.length === 0 ? undefined : Math.max(0, Math.min(...limits));
  const deadline = runTimeoutMs === undefined ? undefined : runDeadline(runTimeoutMs);
  const combined = combine(signal, deadline?.signal);
  const limit = pLimit(concurrency);
  try {
    return await Promise.all(
      classifiers.map((classifier) =>
        limit(() =>
          runOne(
            env,
            { classifier, input, conversation, attempts: 0, ignored: [] },
            combined,
            signal,
          ),
        ),
      ),
    );
  } finally {
    deadline?.clear();
  }
}

async function runOne(
  env: RunEnvironment,
  task: ClassifierTask,
  signal: AbortSignal | undefined,
  external: AbortSignal | undefined,
): Promise<ClassifierRun> {
  const { classifier } = task;
  const started = performance.now();
  const model = modelOf(env, classifier);
  const done = (output: ClassifierOutput, status: ClassifierStatus): ClassifierRun => ({
    name: classifier.name,
    version: classifier.version,
    dispatchOrder: classifier.dispatchOrder,
    output,
    status,
  });
  const fallback = (error: unknown, localConfidence?: number) =>
    done(classifier.fallback, {
      source: 'fallback',
      reason: isTimeoutError(error) ? 'timeout' : 'error',
      fallback_cause: signal?.aborted ? 'deadline' : fallbackCauseOf(error),
      error: describeError(error),
      attempts: task.attempts,
      ms: elapsed(started),
      model,
      ...(localConfidence === undefined ? {} : { local_confidence: localConfidence }),
    });
  const hybrid = env.hybrids.get(classifier.name);
  try {
    if (signal?.aborted) throw signal.reason;
    if (!hybrid) {
      const output = await askWithRetries(env, task, signal);
      return done(output, llmStatus(task, started, model));
    }
    const decision = await hybrid.decide(task, signal === undefined ? {} : { signal });
    const localConfidence = decision.localConfidence ?? 0;
    if (decision.source === 'local') {
      return done(decision.value, {
        source: 'local',
        ms: elapsed(started),
        local_confidence: localConfidence,
      });
    }
    if (decision.source === 'fallback') {
      return done(classifier.fallback, {
        source: 'fallback',
        reason: task.failure?.reason ?? 'error',
        fallback_cause: task.failure?.cause ?? decision.fallbackCause ?? 'llm_error',
        error: task.failure?.error ?? decision.reason,
        attempts: task.attempts,
        ms: elapsed(started),
        model,
        local_confidence: localConfidence,
      });
    }
    return done(decision.value, {
      ...llmStatus(task, started, model),
      local_confidence: localConfidence,
    });
  } catch (error) {
    if (external?.aborted) throw external.reason;
    return fallback(error);
  }
}

function llmStatus(task: ClassifierTask, started: number, model: string): ClassifierStatus {
  return {
    source: 'llm',
    attempts: task.attempts,
    ms: elapsed(started),
    model,
    ...(task.ignored.length > 0 ? { ignored_fields: task.ignored } : {}),
  };
}

/** Asks the model, retrying failed attempts; throws the last attempt's error. */
async function askWithRetries(
  env: Asker,
  task: ClassifierTask,
  signal: AbortSignal | undefined,
): Promise<ClassifierOutput> {
  const { attemptTimeoutMs, retries } = env.runner;
  let lastError: unknown;
  for (let attempt = 0; attempt <= retries; attempt++) {
    task.attempts++;
    try {
      return await withDeadline(
        (inner) => askOnce(env, task, inner),
        attemptTimeoutMs,
        `classifier ${task.classifier.name}`,
        signal,
      );
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      lastError = error;
    }
  }
  throw lastError;
}

/** One attempt: the request, then the output checked. */
async function askOnce(
  env: Asker,
  task: ClassifierTask,
  signal: AbortSignal,
): Promise<ClassifierOutput> {
  const { classifier } = task;
  const { runner, provider } = env;
  // askJson parses the reply (fences and prose stripped where the backend ignored the schema)
  // and validates it against the backend schema; checkOutput then repairs and validates strictly.
  const value = await askJson(provider, {
    system: classifier.systemPrompt,
    messages: [{ role: 'user', content: task.conversation }],
    schema: classifier.backendSchema,
    schemaName: classifier.name,
    temperature: runner.temperature,
    seed: runner.seed,
    maxTokens: classifier.maxTokens ?? runner.maxTokens,
    timeoutMs: runner.attemptTimeoutMs,
    model: modelOf(env, classifier),
    signal,
  });
  const checked = checkOutput(classifier, value);
  if (!checked.ok) throw new LlmInvalidOutputError(provider.id, checked.error);
  task.ignored = checked.ignored;
  return checked.output;
}

function modelOf(env: Asker, classifier: PipelineClassifier): string {
  return env.runner.models[classifier.name] ?? classifier.model ?? env.provider.model;
}

/**
 * The hybrid of a classifier with a local stage: the stage decides when it is sure, the model
 * (with retries) when it is not, the manifest's fallback when the model fails.
 */
export function createStageHybrid(
  classifier: PipelineClassifier,
  stage: LocalStage,
  runner: PipelineSettings['runner'],
  provider: LlmProvider,
): Hybrid<ClassifierTask, ClassifierOutput> {
  const same = stage.same ?? samePayload;
  return new Hybrid<ClassifierTask, ClassifierOutput>(
    {
      name: classifier.name,
      minConfidence: stage.minConfidence,
      local: (task) => {
        try {
          const verdict = stage.classify(task.input);
          const checked = checkOutput(classifier, verdict.value);
          if (checked.ok) return { ...verdict, value: checked.output };
          return {
            value: classifier.fallback,
            confidence: 0,
            reason: `local stage: ${checked.error}`,
          };
        } catch (error) {
          return {
            value: classifier.fallback,
            confidence: 0,
            reason: `local stage failed: ${describeError(error)}`,
          };
        }
      },
      llm: async (task, _local, signal) => {
        const output = await askWithRetries({ provider, runner }, task, signal);
        return { value: output, confidence: certaintyScore(output.certainty) };
      },
      // Each attempt has its own limit; this outer one only guards against a stuck retry loop.
      timeoutMs: runner.attemptTimeoutMs * (runner.retries + 1) + 1000,
      fallback: (context) => {
        const timedOut = context.cause === 'llm_timeout' || context.cause === 'deadline';
        context.input.failure = {
          reason: timedOut ? 'timeout' : 'error',
          cause: context.cause,
          error: context.error ?? `llm ${context.cause}`,
        };
        return { value: classifier.fallback, confidence: 0 };
      },
    },
    same,
  );
}

function runDeadline(ms: number): { signal: AbortSignal; clear(): void } {
  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(new DecisionTimeoutError('pipeline run', ms)),
    ms,
  );
  return { signal: controller.signal, clear: () => clearTimeout(timer) };
}

function combine(a: AbortSignal | undefined, b: AbortSignal | undefined): AbortSignal | undefined {
  if (a && b) return AbortSignal.any([a, b]);
  return a ?? b;
}

function elapsed(started: number): number {
  return Math.round((performance.now() - started) * 100) / 100;
}
