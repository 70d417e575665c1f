import { contextRouterConfig, defaultContextRouterConfig } from './config.js';
import { DOCUMENT_FEATURES, DOCUMENT_SCORES } from './modes.js';
import type { ContextRouterConfig } from './schema.js';
import { DOCUMENT_SIGNALS } from './signals.js';

/**
 * The design document's local router exactly: its eight signals (English only), its three
 * intermediate scores and its mode formulas, with the default policies and thresholds. For
 * comparison with the defaults (`triage eval context --config`), or for those who want the
 * document's behaviour: `new LocalContextRouter(documentContextRouterConfig())`.
 */
export function documentContextRouterConfig(): ContextRouterConfig {
  // A configuration returned by contextRouterConfig, changed and passed back, is checked as it is
  // (the default tables are not merged into it again).
  const config: Mutable<ContextRouterConfig> = defaultContextRouterConfig();
  config.signals = structuredClone(DOCUMENT_SIGNALS) as ContextRouterConfig['signals'];
  config.features = structuredClone(DOCUMENT_FEATURES) as ContextRouterConfig['features'];
  for (const [name, mode] of Object.entries(config.modes)) {
    mode.score = structuredClone(DOCUMENT_SCORES[name as keyof typeof DOCUMENT_SCORES]);
  }
  return contextRouterConfig(config);
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
