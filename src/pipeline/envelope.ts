import type { Certainty } from '../core/certainty.js';
import type { Aggregate, ClassifierRun, FieldMerge } from './aggregate.js';
import type { PipelineMode, PreparedInput } from './input.js';
import { payloadOf } from './local-stage.js';
import type {
  PipelineRiskLevel,
  PipelineSpecialization,
  PipelineTier,
  ReplyField,
  ReservedField,
} from './reserved-fields.js';
import type { ModelRecommendation, ResolverRequest, RoutingAxis } from './resolve.js';
import type { ClassifierStatus } from './status.js';
import type { ClassifierOutput } from './types.js';

/**
 * The result of a run and its audit envelope (the original design). Field names are snake_case, as in
 * the document, because they mirror what the classifiers emit and are meant to be logged as JSON.
 */

/** The prompt-injection slot: the winning `risk_level` and how sure its classifier was. */
export interface PromptInjectionSlot {
  readonly risk_level: PipelineRiskLevel;
  readonly certainty: Certainty;
  readonly score: number;
  /** The classifier whose value won. */
  readonly classifier: string;
}

/** The routing slot: the soft constraints handed to the resolver. */
export interface RoutingSlot {
  readonly model_tier?: PipelineTier;
  readonly model_specialization?: PipelineSpecialization;
}

/** Everything a run decided and why. */
export interface PipelineAudit {
  /** Reserved-field slots that survived the certainty threshold. */
  readonly final_reply?: ReplyField;
  readonly ack_reply?: ReplyField;
  readonly routing: RoutingSlot;
  readonly tools?: readonly string[];
  readonly prompt_injection?: PromptInjectionSlot;
  /** Every classifier's full output, in registry order. */
  readonly classifier_outputs: readonly {
    readonly classifier: string;
    readonly output: ClassifierOutput;
  }[];
  /** The model picked from the catalog and how (`model: null` when no catalog is configured). */
  readonly model_recommendation: ModelRecommendation;
  readonly meta: {
    readonly mode: PipelineMode;
    readonly target: {
      readonly role: string;
      readonly hash: string;
      readonly chars: number;
      readonly truncated: boolean;
    };
    readonly history: {
      readonly messages: number;
      readonly omitted: number;
      readonly truncated: boolean;
    };
    /** Each classifier that ran: its full output, how it came about, and its version. */
    readonly classifiers: Readonly<
      Record<
        string,
        {
          readonly output: ClassifierOutput;
          readonly status: ClassifierStatus;
          readonly version: string;
        }
      >
    >;
    /** Classifiers that do not apply to this target's role. */
    readonly skipped: readonly string[];
    /** How each emitted reserved field was merged: every candidate, and the winner. */
    readonly reserved_fields: Readonly<Partial<Record<ReservedField, FieldMerge>>>;
    /** Whole-run certainty: lowest and mean score, fallbacks (score 0) included. */
    readonly certainty: { readonly min: number; readonly avg: number };
    readonly certainty_threshold: number;
    /** Wall time of the run in milliseconds. */
    readonly duration_ms: number;
  };
}

/** The result of `classify` or `inspect`. */
export interface PipelineResult {
  /** Always `route`: the pipeline never blocks or replies by itself; the caller decides. */
  readonly action: 'route';
  /** The recommended model id, when a catalog is configured. */
  readonly model?: string;
  /**
   * What the downstream model is to be given, where a classifier said with enough certainty:
   * `tools.tools`, the tool ids (open-classify's place for them; also in `audit.tools`).
   */
  readonly downstream?: { readonly tools: { readonly tools: readonly string[] } };
  /** Each classifier's output without `reason` and `certainty`, by name, whatever its certainty. */
  readonly classifier_outputs: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  readonly audit: PipelineAudit;
}

/** The winning value of a merged field. */
function won<T>(merge: FieldMerge | undefined): T | undefined {
  return merge?.winner === undefined ? undefined : (merge.value as T);
}

/** What the resolver is asked for, from the merged routing fields. */
export function resolverRequest(merged: Aggregate): ResolverRequest {
  const lowConfidence: RoutingAxis[] = [];
  const axis = <T>(field: RoutingAxis) => {
    const merge = merged.fields[field];
    if (merge === undefined) return undefined;
    if (merge.winner === undefined) {
      lowConfidence.push(field);
      return undefined;
    }
    return { value: merge.value as T, score: merge.score as number };
  };
  const specialization = axis<PipelineSpecialization>('model_specialization');
  const tier = axis<PipelineTier>('model_tier');
  return {
    ...(specialization ? { specialization } : {}),
    ...(tier ? { tier } : {}),
    lowConfidence,
  };
}

/** Everything {@link buildResult} puts together. */
export interface RunRecord {
  readonly input: PreparedInput;
  readonly runs: readonly ClassifierRun[];
  readonly merged: Aggregate;
  readonly recommendation: ModelRecommendation;
  readonly skipped: readonly string[];
  readonly threshold: number;
  readonly durationMs: number;
}

/** Builds the result and its audit envelope. */
export function buildResult(record: RunRecord): PipelineResult {
  const { input, runs, merged, recommendation } = record;
  const { fields } = merged;
  const routing: { model_tier?: PipelineTier; model_specialization?: PipelineSpecialization } = {};
  const tier = won<PipelineTier>(fields.model_tier);
  if (tier !== undefined) routing.model_tier = tier;
  const specialization = won<PipelineSpecialization>(fields.model_specialization);
  if (specialization !== undefined) routing.model_specialization = specialization;
  const finalReply = won<ReplyField>(fields.final_reply);
  const ackReply = won<ReplyField>(fields.ack_reply);
  const tools = won<readonly string[]>(fields.tools);
  const risk = fields.risk_level;
  const classifierOutputs: Record<string, Record<string, unknown>> = {};
  const metaClassifiers: Record<string, PipelineAudit['meta']['classifiers'][string]> = {};
  for (const run of runs) {
    classifierOutputs[run.name] = payloadOf(run.output);
    metaClassifiers[run.name] = { output: run.output, status: run.status, version: run.version };
  }
  const audit: PipelineAudit = {
    ...(finalReply ? { final_reply: finalReply } : {}),
    ...(ackReply ? { ack_reply: ackReply } : {}),
    routing,
    ...(tools ? { tools } : {}),
    ...(risk?.winner !== undefined
      ? {
          prompt_injection: {
            risk_level: risk.value as PipelineRiskLevel,
            certainty: risk.certainty as Certainty,
            score: risk.score as number,
            classifier: risk.winner,
          },
        }
      : {}),
    classifier_outputs: runs.map((run) => ({ classifier: run.name, output: run.output })),
    model_recommendation: recommendation,
    meta: {
      mode: input.mode,
      target: {
        role: input.target.role,
        hash: input.target.hash,
        chars: input.target.chars,
        truncated: input.target.truncated,
      },
      history: {
        messages: input.history.length,
        omitted: input.historyOmitted,
        truncated: input.historyTruncated,
      },
      classifiers: metaClassifiers,
      skipped: record.skipped,
      reserved_fields: fields,
      certainty: merged.certainty,
      certainty_threshold: record.threshold,
      duration_ms: Math.round(record.durationMs * 100) / 100,
    },
  };
  return {
    action: 'route',
    ...(recommendation.model === null ? {} : { model: recommendation.model }),
    ...(tools ? { downstream: { tools: { tools } } } : {}),
    classifier_outputs: classifierOutputs,
    audit,
  };
}
