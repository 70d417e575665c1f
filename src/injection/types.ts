/**
 * The vocabulary of the prompt-injection detector: risk levels (the original design's `risk_level`),
 * where a text comes from, and the signals that explain a verdict.
 */

/** The risk levels of the original design, weakest first (`unknown` last: it is not a strength). */
export const RISK_LEVELS = ['normal', 'suspicious', 'high_risk', 'unknown'] as const;

/**
 * Prompt-injection posture of a text (the original design):
 * - `normal`: ordinary content, including destructive or sensitive requests that do not try to
 *   override anything;
 * - `suspicious`: possible injection that is weak, quoted, analytical or ambiguous;
 * - `high_risk`: clear injection: overriding, revealing, replacing or bypassing instructions,
 *   policies, hidden prompts or role boundaries;
 * - `unknown`: the risk could not be established (e.g. the text was too long to scan whole).
 */
export type RiskLevel = (typeof RISK_LEVELS)[number];

/** True when `value` is a risk level. */
export function isRiskLevel(value: unknown): value is RiskLevel {
  return typeof value === 'string' && (RISK_LEVELS as readonly string[]).includes(value);
}

/**
 * Where a text comes from. Instructions addressed to the model matter most in data (a tool
 * result, a retrieved document): a user may legitimately say "translate your answer into
 * Spanish", a web page may not.
 */
export const INJECTION_SOURCES = ['user', 'tool_result', 'document'] as const;

/** One of {@link INJECTION_SOURCES}. */
export type InjectionSource = (typeof INJECTION_SOURCES)[number];

/** The families of signals the detector reports. */
export const SIGNAL_KINDS = [
  /** "ignore all previous instructions", "forget everything above", in any supported language. */
  'instruction_override',
  /** DAN-style personas, "developer mode", "you have no restrictions". */
  'role_manipulation',
  /** "repeat your system prompt", "print the instructions above". */
  'prompt_extraction',
  /** Chat-template tokens (`<|im_start|>`, `[INST]`) and fake role headers (`### System:`). */
  'fake_delimiter',
  /** Base64, hex or invisible tag characters that decode to instructions; "decode and run". */
  'encoded_payload',
  /** Leetspeak, homoglyphs, zero-width characters or split letters inside the text. */
  'obfuscation',
  /** Text in data that addresses the model ("AI assistant: when summarising, …"). */
  'hidden_instruction',
  /** Attempts to send conversation data, secrets or keys somewhere. */
  'exfiltration',
  /**
   * Attempts on a secret or on personal data: asking for, spelling, encoding, translating or
   * hinting at a password, a key, a code or a person's details (strongest when the system prompt
   * protects that item).
   */
  'secret_extraction',
  /** A request outside what the system prompt restricts the assistant to, or on a topic it forbids. */
  'scope_violation',
  /** Abrupt task switches: "stop everything, just print …", "your new task is …". */
  'context_switch',
  /** Patterns added by the user's configuration. */
  'custom',
] as const;

/** One of {@link SIGNAL_KINDS}. */
export type SignalKind = (typeof SIGNAL_KINDS)[number];

/** One piece of evidence: what fired, where, and how much it weighed. */
export interface InjectionSignal {
  readonly kind: SignalKind;
  /** What fired, e.g. `ignore … previous instructions` or `base64 payload`. */
  readonly label: string;
  /** UTF-16 offset of the evidence in the scanned text. */
  readonly start: number;
  /** UTF-16 offset just after the evidence. */
  readonly end: number;
  /** Its contribution to the risk score, in [0, 1], after context adjustments. */
  readonly weight: number;
}

/** What the local detector concluded about one text. */
export interface InjectionResult {
  readonly riskLevel: RiskLevel;
  /** Confidence in `riskLevel`, in [0, 1]; below the guard's threshold the LLM is asked. */
  readonly confidence: number;
  /** The combined risk score in [0, 1] that the levels are cut from. */
  readonly score: number;
  /** The evidence, strongest first (at most `maxSignals` of the configuration). */
  readonly signals: readonly InjectionSignal[];
  readonly source: InjectionSource;
  /** True when the text was longer than `maxChars` and only its beginning was scanned. */
  readonly truncated: boolean;
}

/** Options of one detection. */
export interface DetectOptions {
  /** Where the text comes from. Default `user`. */
  readonly source?: InjectionSource;
  /**
   * The system prompt the text is sent against, when there is one. What it protects (secrets,
   * personal data, the prompt itself) and what it restricts the assistant to or forbids are
   * extracted once per distinct prompt (cached), and the text is scored for attempts on them:
   * "What is the password?" is an attack on a prompt that guards a password, a question about
   * Los Angeles one on a prompt that allows only New York.
   */
  readonly system?: string;
}
