import Type, { type Static } from 'typebox';
import { ConfigError } from '../core/errors.js';
import { compileConfig } from '../core/validate.js';
import { expandAlternatives } from '../text/index.js';
import { INJECTION_SOURCES, type InjectionSource, SIGNAL_KINDS, type SignalKind } from './types.js';

/**
 * Configuration of the local detector: a preset (strict, balanced, lenient) that sets the score
 * thresholds of the risk levels, optional explicit thresholds, limits, and user-added patterns.
 */

/** The presets and the thresholds they set. */
export const INJECTION_PRESETS = {
  /** Flags more: for tool results and documents fed to agents with side effects. */
  strict: { suspiciousAt: 0.35, highRiskAt: 0.65 },
  /** The default: few false alarms on ordinary chat, clear attacks high risk. */
  balanced: { suspiciousAt: 0.5, highRiskAt: 0.8 },
  /** Flags only what is clearly an attack: for open-ended creative or security-research chat. */
  lenient: { suspiciousAt: 0.65, highRiskAt: 0.9 },
} as const;

/** The name of a preset. */
export type InjectionPreset = keyof typeof INJECTION_PRESETS;

const Kind = Type.Unsafe<SignalKind>({ type: 'string', enum: [...SIGNAL_KINDS] });
const Source = Type.Unsafe<InjectionSource>({ type: 'string', enum: [...INJECTION_SOURCES] });

/** A pattern added by the user. */
export const CustomPatternSchema = Type.Object(
  {
    /** A phrase, or a compact pattern such as `reveal (the|your) (secret|hidden) recipe`. */
    pattern: Type.String({ minLength: 1, maxLength: 500 }),
    /** Its contribution to the risk score when found (noisy-or with the other signals). */
    weight: Type.Number({ minimum: 0, maximum: 1 }),
    /** The signal kind it reports. Default `custom`. */
    kind: Type.Optional(Kind),
    /** The sources it applies to. Default: all. */
    sources: Type.Optional(Type.Array(Source, { minItems: 1, uniqueItems: true })),
  },
  { additionalProperties: false },
);

/** The detector configuration. */
export const InjectionConfigSchema = Type.Object(
  {
    /** Sets `suspiciousAt` and `highRiskAt` unless they are given. Default `balanced`. */
    preset: Type.Union(
      [Type.Literal('strict'), Type.Literal('balanced'), Type.Literal('lenient')],
      {
        default: 'balanced',
      },
    ),
    /** The score at and above which a text is `suspicious`. */
    suspiciousAt: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 1 })),
    /** The score at and above which a text is `high_risk`. */
    highRiskAt: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 1 })),
    /**
     * Characters scanned at most (in overlapping windows of a million); a longer text is scanned
     * up to here and, when nothing is found, reported `unknown` (its risk could not be
     * established). Default 16,000,000: more than a server's default body limit holds.
     */
    maxChars: Type.Integer({ minimum: 1, default: 16_000_000 }),
    /** Most signals reported as evidence. Default 20. */
    maxSignals: Type.Integer({ minimum: 0, maximum: 1000, default: 20 }),
    /** Patterns added to the built-in ones. */
    patterns: Type.Array(CustomPatternSchema, { default: [], maxItems: 10_000 }),
    /** Signal kinds to switch off (e.g. `hidden_instruction` for a corpus of prompts). */
    disabledKinds: Type.Array(Kind, { default: [], uniqueItems: true }),
  },
  { additionalProperties: false },
);

/** The validated configuration (thresholds resolved). */
export type InjectionConfig = Static<typeof InjectionConfigSchema> & {
  readonly suspiciousAt: number;
  readonly highRiskAt: number;
};

/** The configuration as a user writes it: every field optional. */
export type InjectionConfigInput = Partial<Static<typeof InjectionConfigSchema>>;

/** A custom pattern as a user writes it. */
export type CustomPattern = Static<typeof CustomPatternSchema>;

const validate = compileConfig(InjectionConfigSchema, 'injection config');

/**
 * Validates a configuration, fills in defaults and resolves the thresholds from the preset.
 * Throws a `ConfigError` naming each bad field (an unknown key, a threshold out of order, a
 * pattern that does not parse).
 */
export function injectionConfig(
  input: InjectionConfigInput = {},
  source = 'injection config',
): InjectionConfig {
  const value = validate(structuredClone(input), source);
  const preset = INJECTION_PRESETS[value.preset];
  const suspiciousAt = value.suspiciousAt ?? preset.suspiciousAt;
  const highRiskAt = value.highRiskAt ?? preset.highRiskAt;
  const issues: { path: string; message: string }[] = [];
  if (!(suspiciousAt < highRiskAt)) {
    issues.push({
      path: value.highRiskAt === undefined ? '/suspiciousAt' : '/highRiskAt',
      message: `must keep suspiciousAt (${suspiciousAt}) below highRiskAt (${highRiskAt})`,
    });
  }
  value.patterns.forEach((pattern, index) => {
    try {
      expandAlternatives(pattern.pattern, 1000);
    } catch (error) {
      issues.push({ path: `/patterns/${index}/pattern`, message: (error as Error).message });
    }
  });
  if (issues.length > 0) throw new ConfigError(source, issues);
  return { ...value, suspiciousAt, highRiskAt };
}
