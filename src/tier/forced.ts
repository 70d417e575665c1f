import type { TierOptions } from './options.js';
import type { Tier } from './tiers.js';

/**
 * Forced tiers from model ids (the original design: forced tier override). `simple`, `triage/simple`,
 * `claw-llm-router/simple`, `Triage/SIMPLE` force SIMPLE, and so on; any other id (`auto`,
 * `triage/auto`, `claw-llm-router/auto`, a real model name) is classified. Both prefixes are
 * the default (`forcedModels.prefixes`), so that claw-llm-router's clients work unchanged. Ids
 * compare case-insensitively.
 */
export function compileForcedModels(
  options: TierOptions['forcedModels'],
): (model: string | undefined) => Tier | undefined {
  const prefixes = options.prefixes.map((prefix) => prefix.toLowerCase());
  const tiers = new Map(
    Object.entries(options.tiers).map(([id, tier]) => [id.trim().toLowerCase(), tier as Tier]),
  );
  return (model) => {
    if (typeof model !== 'string' || model.length === 0 || model.length > 256) return undefined;
    let id = model.trim().toLowerCase();
    const prefix = prefixes.find((p) => id.startsWith(p));
    if (prefix !== undefined) id = id.slice(prefix.length);
    return tiers.get(id);
  };
}
