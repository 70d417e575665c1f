import Type, { type Static } from 'typebox';
import type { ConfigIssue } from '../core/errors.js';
import type { TierModel } from './config.js';
import type { ServerConfig } from './config-schema.js';

/**
 * The endpoints forwarded without tier routing: embeddings and legacy completions go to the models
 * listed for them (a request names one, bare or as `provider/model`; `auto` or no model takes the
 * first).
 */

const MODEL = Type.String({ pattern: '^[^/\\s]+/\\S+$' });

/** The models an endpoint forwards to, first the default. */
export const ForwardedEndpointSchema = Type.Object(
  { models: Type.Array(MODEL, { minItems: 1 }) },
  { additionalProperties: false },
);

/** `embeddings` and `completions`. */
export const ForwardedSectionSchema = Type.Object(
  {
    embeddings: Type.Optional(ForwardedEndpointSchema),
    completions: Type.Optional(ForwardedEndpointSchema),
  },
  { additionalProperties: false, default: {} },
);

export type ForwardedSection = Static<typeof ForwardedSectionSchema>;
export type ForwardedEndpoint = keyof ForwardedSection;

/** The models of a forwarded endpoint, resolved (empty when it is not configured). */
export function forwardedModels(config: ServerConfig, endpoint: ForwardedEndpoint): TierModel[] {
  return (config.forward[endpoint]?.models ?? []).map((entry) => {
    const slash = entry.indexOf('/');
    const provider = entry.slice(0, slash);
    const model = entry.slice(slash + 1);
    const timeoutMs = config.providers[provider]?.timeoutMs ?? 120_000;
    return { provider, model, id: entry, timeoutMs };
  });
}

/** Forwarded models must name configured OpenAI-compatible providers. */
export function forwardedIssues(config: ServerConfig): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  for (const endpoint of ['embeddings', 'completions'] as const) {
    config.forward[endpoint]?.models.forEach((entry, index) => {
      const provider = entry.slice(0, entry.indexOf('/'));
      const path = `/forward/${endpoint}/models/${index}`;
      const section = config.providers[provider];
      if (section === undefined) {
        issues.push({
          path,
          message: `names provider '${provider}', which is not under providers`,
        });
      } else if (section.api !== 'openai') {
        issues.push({
          path,
          message: `names provider '${provider}', whose api (${section.api}) has no ${endpoint} endpoint`,
        });
      }
    });
  }
  return issues;
}
