import Type, { type TObject, type TSchema } from 'typebox';
import { allOfAsync, anyOfAsync, notAsync, thresholdAsync } from '../core/async-composites.js';
import type { AsyncClassifier, Classifier } from '../core/classifier.js';
import { allOf, anyOf, not, threshold } from '../core/composites.js';
import { ConfigError } from '../core/errors.js';
import type { DecisionCache } from '../core/hybrid.js';
import { compileConfig } from '../core/validate.js';
import type { LlmProvider } from '../llm/types.js';
import { DoomLoopClassifier, DoomLoopOptionsSchema } from './classifiers/doom-loop.js';
import { ErrorStreakClassifier, ErrorStreakOptionsSchema } from './classifiers/error-streak.js';
import {
  HighToolCountClassifier,
  HighToolCountOptionsSchema,
} from './classifiers/high-tool-count.js';
import { LargeOutputClassifier, LargeOutputOptionsSchema } from './classifiers/large-output.js';
import { LlmGuidanceClassifier, type LlmGuidanceValue } from './classifiers/llm.js';
import {
  ProgressStallClassifier,
  ProgressStallOptionsSchema,
} from './classifiers/progress-stall.js';
import {
  SensitiveContentClassifier,
  SensitiveContentOptionsSchema,
} from './classifiers/sensitive-content.js';
import {
  SequentialWhenParallelClassifier,
  SequentialWhenParallelOptionsSchema,
} from './classifiers/sequential-when-parallel.js';
import {
  SingleToolRepeatedClassifier,
  SingleToolRepeatedOptionsSchema,
} from './classifiers/single-tool-repeated.js';
import type { GuidanceContext } from './types.js';

/**
 * Classifiers described as data, for configuration files: `{type: "doom_loop", minRepetitions: 4}`,
 * composites nesting other specs (`{type: "any_of", classifiers: [...]}`), and `llm`, which needs
 * a provider from code. A composite over an `llm` spec is asynchronous itself (it asks its children
 * in order and stops when the answer is known); a gate must be local. Each node is validated against the schema of its type, so an error names
 * the exact field (`/providers/0/classifier/classifiers/1/threshold must be >= 1`).
 */

/** What a spec builds: a local classifier, or an async (LLM) one. */
export type BuiltClassifier =
  | { readonly kind: 'sync'; readonly classifier: Classifier<GuidanceContext> }
  | { readonly kind: 'async'; readonly classifier: AsyncClassifier<GuidanceContext> };

/** What building specs may need from code. */
export interface SpecDependencies {
  /** The provider `llm` classifiers ask. Without one, an `llm` spec is a configuration error. */
  readonly llm?: LlmProvider;
  /** A cache of `llm` classifiers' verdicts (e.g. one shared with other subsystems). */
  readonly cache?: DecisionCache<LlmGuidanceValue>;
}

type Leaf = (options: Record<string, unknown>) => Classifier<GuidanceContext>;

const LEAVES: Record<string, { schema: TObject; build: Leaf }> = {
  doom_loop: { schema: DoomLoopOptionsSchema, build: (o) => new DoomLoopClassifier(o) },
  error_streak: { schema: ErrorStreakOptionsSchema, build: (o) => new ErrorStreakClassifier(o) },
  progress_stall: {
    schema: ProgressStallOptionsSchema,
    build: (o) => new ProgressStallClassifier(o),
  },
  high_tool_count: {
    schema: HighToolCountOptionsSchema,
    build: (o) => new HighToolCountClassifier(o),
  },
  single_tool_repeated: {
    schema: SingleToolRepeatedOptionsSchema,
    build: (o) => new SingleToolRepeatedClassifier(o),
  },
  sequential_when_parallel: {
    schema: SequentialWhenParallelOptionsSchema,
    build: (o) => new SequentialWhenParallelClassifier(o),
  },
  large_output: { schema: LargeOutputOptionsSchema, build: (o) => new LargeOutputClassifier(o) },
  sensitive_content: {
    schema: SensitiveContentOptionsSchema,
    build: (o) => new SensitiveContentClassifier(o),
  },
};

const node = (type: string, properties: Record<string, TSchema>) =>
  Type.Object({ type: Type.Literal(type), ...properties }, { additionalProperties: false });

const COMPOSITES = {
  all_of: node('all_of', { classifiers: Type.Array(Type.Unknown(), { minItems: 1 }) }),
  any_of: node('any_of', { classifiers: Type.Array(Type.Unknown(), { minItems: 1 }) }),
  not: node('not', { classifier: Type.Unknown() }),
  threshold: node('threshold', {
    classifier: Type.Unknown(),
    minConfidence: Type.Number({ minimum: 0, maximum: 1 }),
  }),
  llm: node('llm', {
    question: Type.String({ minLength: 1 }),
    name: Type.Optional(Type.String({ minLength: 1 })),
    model: Type.Optional(Type.String({ minLength: 1 })),
    timeoutMs: Type.Integer({ minimum: 1, maximum: 60_000, default: 500 }),
    gate: Type.Optional(Type.Unknown()),
    trustGateAt: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
    recentCalls: Type.Integer({ minimum: 0, maximum: 50, default: 5 }),
    maxTokens: Type.Integer({ minimum: 1, maximum: 4096, default: 200 }),
  }),
} as const;

/** The `type`s a classifier spec may have. */
export const CLASSIFIER_TYPES: readonly string[] = [
  ...Object.keys(LEAVES),
  ...Object.keys(COMPOSITES),
];

const validators = new Map<string, (value: unknown) => Record<string, unknown>>();
for (const [type, entry] of Object.entries(LEAVES)) {
  const validate = compileConfig(node(type, entry.schema.properties), type);
  validators.set(type, (value) => validate(value) as Record<string, unknown>);
}
for (const [type, schema] of Object.entries(COMPOSITES)) {
  const validate = compileConfig(schema, type);
  validators.set(type, (value) => validate(value) as Record<string, unknown>);
}

/**
 * Builds the classifier a spec describes. Throws a {@link ConfigError} for `source`, naming each
 * bad field by its path below `path`.
 */
export function buildClassifier(
  spec: unknown,
  source: string,
  path = '',
  dependencies: SpecDependencies = {},
): BuiltClassifier {
  const type = (spec as { type?: unknown } | null)?.type;
  if (typeof spec !== 'object' || spec === null || Array.isArray(spec)) {
    throw new ConfigError(source, [{ path, message: 'must be a classifier object with a "type"' }]);
  }
  const validate = typeof type === 'string' ? validators.get(type) : undefined;
  if (validate === undefined) {
    throw new ConfigError(source, [
      { path: `${path}/type`, message: `must be one of: ${CLASSIFIER_TYPES.join(', ')}` },
    ]);
  }
  let options: Record<string, unknown>;
  try {
    options = validate(structuredClone(spec));
  } catch (error) {
    throw rebase(error, source, path);
  }
  const { type: _type, ...rest } = options;
  const leaf = LEAVES[type as string];
  if (leaf) return { kind: 'sync', classifier: leaf.build(rest) };
  const child = (value: unknown, at: string) => buildClassifier(value, source, at, dependencies);
  switch (type) {
    case 'all_of':
    case 'any_of': {
      const children = (rest.classifiers as unknown[]).map((c, i) =>
        child(c, `${path}/classifiers/${i}`),
      );
      const locals = localOnly(children);
      if (locals)
        return { kind: 'sync', classifier: (type === 'all_of' ? allOf : anyOf)(...locals) };
      const classifiers = children.map((c) => c.classifier);
      return {
        kind: 'async',
        classifier: (type === 'all_of' ? allOfAsync : anyOfAsync)(...classifiers),
      };
    }
    case 'not': {
      const inner = child(rest.classifier, `${path}/classifier`);
      return inner.kind === 'sync'
        ? { kind: 'sync', classifier: not(inner.classifier) }
        : { kind: 'async', classifier: notAsync(inner.classifier) };
    }
    case 'threshold': {
      const inner = child(rest.classifier, `${path}/classifier`);
      const min = rest.minConfidence as number;
      return inner.kind === 'sync'
        ? { kind: 'sync', classifier: threshold(inner.classifier, min) }
        : { kind: 'async', classifier: thresholdAsync(inner.classifier, min) };
    }
    default:
      return { kind: 'async', classifier: buildLlm(rest, source, path, dependencies) };
  }
}

/** The children's classifiers when all are local, else `undefined`. */
function localOnly(
  children: readonly BuiltClassifier[],
): Classifier<GuidanceContext>[] | undefined {
  const locals: Classifier<GuidanceContext>[] = [];
  for (const child of children) {
    if (child.kind === 'async') return undefined;
    locals.push(child.classifier);
  }
  return locals;
}

function buildLlm(
  options: Record<string, unknown>,
  source: string,
  path: string,
  dependencies: SpecDependencies,
): LlmGuidanceClassifier {
  if (dependencies.llm === undefined) {
    throw new ConfigError(source, [
      { path: `${path}/type`, message: 'llm needs an LLM provider, and none was configured' },
    ]);
  }
  const { gate, ...rest } = options as {
    gate?: unknown;
    question: string;
    timeoutMs: number;
    recentCalls: number;
    maxTokens: number;
  };
  return new LlmGuidanceClassifier({
    ...rest,
    provider: dependencies.llm,
    ...(dependencies.cache === undefined ? {} : { cache: dependencies.cache }),
    ...(gate === undefined ? {} : { gate: syncChild(gate, source, `${path}/gate`, dependencies) }),
  });
}

function syncChild(
  spec: unknown,
  source: string,
  path: string,
  dependencies: SpecDependencies,
): Classifier<GuidanceContext> {
  const built = buildClassifier(spec, source, path, dependencies);
  if (built.kind === 'async') {
    throw new ConfigError(source, [
      {
        path: `${path}/type`,
        message: 'must be a local classifier: a gate decides whether the LLM is asked',
      },
    ]);
  }
  return built.classifier;
}

/** The same error for `source`, with each issue's path placed below `path`. */
export function rebase(error: unknown, source: string, path: string): unknown {
  if (!(error instanceof ConfigError)) return error;
  return new ConfigError(
    source,
    error.issues.map((issue) => ({ path: `${path}${issue.path}`, message: issue.message })),
  );
}
