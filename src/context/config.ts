import { ConfigError, type ConfigIssue } from '../core/errors.js';
import { prebuildable, prebuilt } from '../core/prebuilt.js';
import { compileConfig } from '../core/validate.js';
import { expandAlternatives } from '../text/expand.js';
import { fromKlausConfig } from './klaus-config.js';
import { DEFAULT_FEATURES, DEFAULT_MODES } from './modes.js';
import {
  type ContextRouterConfig,
  type ContextRouterConfigInput,
  ContextRouterConfigSchema,
} from './schema.js';
import { DEFAULT_SIGNALS } from './signals.js';

const validateSchema = compileConfig(ContextRouterConfigSchema, 'context router config');

/** The tables merged by name with the defaults (the other keys are merged field by field). */
const TABLES = ['signals', 'features', 'modes'] as const;

const DEFAULTS: Readonly<Record<string, unknown>> = {
  signals: DEFAULT_SIGNALS,
  features: DEFAULT_FEATURES,
  modes: DEFAULT_MODES,
};

/**
 * Validates a context-router configuration and fills in every default: the original design's modes,
 * policies, signals, weights and thresholds (with our corrections).
 *
 * The input is merged into the defaults first. Plain objects merge field by field, arrays and
 * scalars replace. In the tables (`signals`, `features`, `modes`) an entry with a known name is
 * merged into the default entry (so `{ modes: { standalone_definition: { policy: { maxSentences:
 * 3 } } } }` changes one field), a new name adds an entry (all its required fields then needed),
 * and `null` removes one. The result is validated against the schema, then cross-checked: every
 * weight names a known signal, every score term and threshold a known feature, and the fallback
 * and disabled modes exist. Throws a {@link ConfigError} naming every bad field by its path.
 *
 * A configuration returned by this function can be modified and passed back: it is then checked
 * as it is, without merging the defaults into it again.
 */
export function contextRouterConfig(
  input: ContextRouterConfigInput | unknown = {},
  source = 'context router config',
): ContextRouterConfig {
  if (!isPlainObject(input)) {
    throw new ConfigError(source, [{ path: '', message: 'must be an object' }]);
  }
  if (Object.keys(input).length === 0) {
    // The defaults as the build validated them (see `core/prebuilt.ts`): validating and
    // cross-checking the whole default table takes tens of milliseconds on a cold start.
    const stored = prebuilt<ContextRouterConfig>(DEFAULT_CONFIG, '');
    if (stored) {
      COMPLETE.add(stored);
      return stored;
    }
  }
  const candidate = COMPLETE.has(input) ? clone(input) : withDefaults(fromKlausConfig(input));
  const config = validateSchema(candidate, source);
  const issues = crossCheck(config);
  if (issues.length > 0) throw new ConfigError(source, issues);
  COMPLETE.add(config);
  return config;
}

const DEFAULT_CONFIG = 'context-default-config';
prebuildable(DEFAULT_CONFIG, () => ({ input: '', value: contextRouterConfig({}) }));

/**
 * Configurations this module returned. Passed back (perhaps modified), they are checked again as
 * they are, not merged into the defaults a second time (which would bring back removed entries).
 */
const COMPLETE = new WeakSet<object>();

function withDefaults(input: Record<string, unknown>): Record<string, unknown> {
  const merged = new Map<string, unknown>();
  for (const table of TABLES) merged.set(table, clone(DEFAULTS[table]));
  for (const [key, value] of Object.entries(input)) {
    const current = merged.get(key);
    merged.set(
      key,
      (TABLES as readonly string[]).includes(key)
        ? mergeTable(current, value)
        : merge(current, value),
    );
  }
  return Object.fromEntries(merged);
}

/** The default configuration (a fresh copy: safe to modify and pass back). */
export function defaultContextRouterConfig(): ContextRouterConfig {
  return contextRouterConfig({});
}

function crossCheck(config: ContextRouterConfig): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const { signals, features, modes } = config;
  const unknown = (path: string, kind: string) =>
    issues.push({ path, message: `is not a known ${kind}` });
  for (const [name, signal] of Object.entries(signals)) {
    if (signal.phrases.length === 0 && signal.sequences.length === 0) {
      issues.push({ path: `/signals/${name}`, message: 'needs at least one phrase or sequence' });
    }
    signal.phrases.forEach((phrase, i) => {
      checkPhrase(phrase, `/signals/${name}/phrases/${i}`, issues);
    });
    signal.sequences.forEach((sequence, j) => {
      sequence.parts.forEach((part, k) => {
        part.forEach((phrase, i) => {
          checkPhrase(phrase, `/signals/${name}/sequences/${j}/parts/${k}/${i}`, issues);
        });
      });
    });
  }
  for (const [name, feature] of Object.entries(features)) {
    for (const signal of Object.keys(feature.weights)) {
      if (!(signal in signals)) unknown(`/features/${name}/weights/${signal}`, 'signal');
    }
  }
  for (const [name, mode] of Object.entries(modes)) {
    mode.score.terms.forEach((term, i) => {
      if (!(term.feature in features))
        unknown(`/modes/${name}/score/terms/${i}/feature`, 'feature');
    });
    mode.score.bonuses.forEach((bonus, i) => {
      bonus.signals.forEach((signal, j) => {
        if (!(signal in signals))
          unknown(`/modes/${name}/score/bonuses/${i}/signals/${j}`, 'signal');
      });
      for (const feature of Object.keys(bonus.above)) {
        if (!(feature in features)) {
          unknown(`/modes/${name}/score/bonuses/${i}/above/${feature}`, 'feature');
        }
      }
    });
  }
  if (!(config.fallback.mode in modes)) unknown('/fallback/mode', 'mode');
  if (!(config.disabledMode in modes)) unknown('/disabledMode', 'mode');
  return issues;
}

/** A phrase must expand, and every expansion must keep a character to match. */
function checkPhrase(phrase: string, path: string, issues: ConfigIssue[]): void {
  let expanded: string[];
  try {
    expanded = expandAlternatives(phrase);
  } catch (error) {
    issues.push({ path, message: (error as Error).message });
    return;
  }
  if (expanded.some((alternative) => alternative.replace(/^\*|\*$/g, '').trim() === '')) {
    issues.push({ path, message: 'has an empty alternative' });
  }
}

function mergeTable(defaults: unknown, patch: unknown): unknown {
  if (!isPlainObject(patch) || !isPlainObject(defaults)) return clone(patch);
  const entries = new Map(Object.entries(defaults));
  for (const [name, entry] of Object.entries(patch)) {
    if (entry === null) entries.delete(name);
    else entries.set(name, merge(entries.get(name), entry));
  }
  return Object.fromEntries(entries);
}

/** Merges `patch` into a copy of `base`: plain objects field by field; anything else replaces. */
function merge(base: unknown, patch: unknown): unknown {
  if (patch === undefined) return clone(base);
  if (!isPlainObject(base) || !isPlainObject(patch)) return clone(patch);
  const entries = new Map(Object.entries(base).map(([key, value]) => [key, clone(value)]));
  for (const [key, value] of Object.entries(patch))
    entries.set(key, merge(entries.get(key), value));
  // fromEntries defines own properties, so a `__proto__` key stays an (unknown, rejected) field.
  return Object.fromEntries(entries);
}

function clone(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(clone);
  if (isPlainObject(value)) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, clone(item)]));
  }
  return value;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
