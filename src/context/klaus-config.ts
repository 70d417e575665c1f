/**
 * The context router's settings under the names of the project the original context design comes from (its
 * `config.toml`: `enable_query_router`, `router_local_confidence_threshold`, `router_model`, …),
 * so that its configuration file is read as it is. That file holds the whole application's
 * settings; when it names the router's (any key below), the keys that are not the router's are
 * that application's own and are left out.
 */

/** Each of that project's router settings, and where it goes in triage's configuration. */
const KLAUS_KEYS: Readonly<Record<string, readonly string[]>> = {
  enable_query_router: ['enabled'],
  router_local_confidence_threshold: ['localConfidenceThreshold'],
  router_local_margin_threshold: ['localMarginThreshold'],
  router_model: ['llm', 'model'],
  router_timeout_ms: ['llm', 'timeoutMs'],
  router_max_tokens: ['llm', 'maxTokens'],
  router_llm_confidence_threshold: ['llm', 'confidenceThreshold'],
};

/** Whether a configuration is written with that project's names (it has one of its keys). */
export function isKlausConfig(input: Readonly<Record<string, unknown>>): boolean {
  return Object.keys(input).some((key) => Object.hasOwn(KLAUS_KEYS, key));
}

/**
 * A configuration in that project's names turned into triage's: its router settings moved to
 * their places (triage's own keys, given too, win), the application's other settings left out.
 * Any other configuration is returned as it is.
 */
export function fromKlausConfig(input: Readonly<Record<string, unknown>>): Record<string, unknown> {
  if (!isKlausConfig(input)) return input as Record<string, unknown>;
  const config: Record<string, unknown> = {};
  const llm: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) {
    const to = KLAUS_KEYS[key];
    if (to === undefined) continue;
    if (to.length === 1) config[to[0]!] = value;
    else llm[to[1]!] = value;
  }
  for (const key of TRIAGE_KEYS) {
    if (key in input) config[key] = input[key];
  }
  if (Object.keys(llm).length > 0) {
    const own = input.llm;
    config.llm = { ...llm, ...(typeof own === 'object' && own !== null ? own : {}) };
  }
  return config;
}

/** triage's own top-level keys, kept when given beside that project's. */
const TRIAGE_KEYS = [
  'enabled',
  'disabledMode',
  'localConfidenceThreshold',
  'localMarginThreshold',
  'noSignalConfidence',
  'maxQuestionChars',
  'whenUnsureWithoutLlm',
  'fallback',
  'modes',
  'signals',
  'features',
] as const;
