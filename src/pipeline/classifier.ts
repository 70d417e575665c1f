import { basename, join, resolve } from 'node:path';
import type { ValidateFunction } from 'ajv';
import { ConfigError, type ConfigIssue } from '../core/errors.js';
import type { JsonSchema } from '../llm/types.js';
import { readConfigData, readConfigText } from './files.js';
import { type Manifest, parseManifest, type TargetRole } from './manifest.js';
import { checkOutput, type OutputChecker } from './output.js';
import { compileOutputSchema, composeOutputSchema, type OutputShape } from './output-schema.js';
import { assembleSystemPrompt, unknownPlaceholders } from './prompt.js';
import type { ReservedField } from './reserved-fields.js';
import type { ClassifierOutput } from './types.js';

/**
 * A pipeline classifier, loaded from its folder and compiled once: manifest validated, system
 * prompt assembled, output schemas composed and compiled, fallback checked against them.
 */
export interface PipelineClassifier extends OutputChecker {
  readonly name: string;
  readonly version: string;
  readonly purpose: string;
  /** Start order and tie-break (lower first); `undefined` sorts last. */
  readonly dispatchOrder: number | undefined;
  readonly appliesTo: readonly TargetRole[];
  readonly reservedFields: readonly ReservedField[];
  readonly allowedTools: readonly string[];
  /** The manifest's model, when it names one. */
  readonly model: string | undefined;
  readonly maxTokens: number | undefined;
  /** The folder it was loaded from. */
  readonly dir: string;
  /** Whether it is one of triage's stock classifiers. */
  readonly stock: boolean;
  readonly manifest: Manifest;
  readonly systemPrompt: string;
  /** The composed schema every output is validated against. */
  readonly outputSchema: JsonSchema;
  /** The schema sent to the backend as the structured output format. */
  readonly backendSchema: JsonSchema;
  /** The manifest's fallback output, used when the classifier fails. */
  readonly fallback: ClassifierOutput;
}

/**
 * Loads the classifier in `dir` (`manifest.json` + `prompt.md`). Throws a {@link ConfigError}
 * naming the file and every bad field.
 */
export function loadClassifier(dir: string, stock = false): PipelineClassifier {
  const folder = resolve(dir);
  const manifestPath = join(folder, 'manifest.json');
  const promptPath = join(folder, 'prompt.md');
  const source = `classifier manifest ${manifestPath}`;
  const manifest = parseManifest(readConfigData(manifestPath, source), basename(folder), source);
  const body = readConfigText(promptPath, `classifier prompt ${promptPath}`, true);
  const unknown = unknownPlaceholders(body);
  if (unknown.length > 0) {
    throw new ConfigError(`classifier prompt ${promptPath}`, [
      { path: '', message: `unknown placeholder(s): ${unknown.map((p) => `{{${p}}}`).join(', ')}` },
    ]);
  }
  const shape: OutputShape = {
    reservedFields: manifest.reserved_fields,
    allowedTools: manifest.allowed_tools ?? [],
    customProperties: (manifest.output_schema?.properties ?? {}) as Record<string, JsonSchema>,
    customRequired: manifest.output_schema?.required ?? [],
  };
  const outputSchema = composeOutputSchema(shape, false);
  const backendSchema = composeOutputSchema(shape, true);
  // The backend schema only relaxes the validation schema, so compiling the latter checks both.
  const validate = compile(outputSchema, source);
  const knownFields = new Set(Object.keys(outputSchema.properties as object));
  const checker: OutputChecker = { allowedTools: shape.allowedTools, knownFields, validate };
  const fallback = checkFallback(checker, manifest, source);
  return Object.freeze({
    name: manifest.name,
    version: manifest.version,
    purpose: manifest.purpose,
    dispatchOrder: manifest.dispatch_order,
    appliesTo: manifest.applies_to,
    reservedFields: manifest.reserved_fields,
    allowedTools: shape.allowedTools,
    model: manifest.model,
    maxTokens: manifest.max_tokens,
    dir: folder,
    stock,
    manifest,
    systemPrompt: assembleSystemPrompt({
      name: manifest.name,
      purpose: manifest.purpose,
      body,
      ...shape,
    }),
    outputSchema,
    backendSchema,
    knownFields,
    validate,
    fallback,
  });
}

function compile(schema: JsonSchema, source: string): ValidateFunction {
  const compiled = compileOutputSchema(schema);
  if (compiled.validate) return compiled.validate;
  throw new ConfigError(source, [
    { path: '/output_schema', message: `is not a valid JSON Schema: ${compiled.error}` },
  ]);
}

/** The fallback must be an output the classifier could itself have given. */
function checkFallback(
  checker: OutputChecker,
  manifest: Manifest,
  source: string,
): ClassifierOutput {
  const checked = checkOutput(checker, manifest.fallback);
  const issues: ConfigIssue[] = [];
  if (!checked.ok) issues.push({ path: '/fallback', message: checked.error });
  else {
    for (const field of checked.ignored) {
      issues.push({ path: `/fallback/${field}`, message: 'is not a field of this classifier' });
    }
  }
  if (issues.length > 0 || !checked.ok) throw new ConfigError(source, issues);
  return Object.freeze(checked.output);
}
