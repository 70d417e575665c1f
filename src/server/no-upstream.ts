import { HttpError } from './errors.js';
import type { Routing } from './routing.js';

/**
 * The answer to a chat request whose tier (and fallbacks) have no upstream model: what triage
 * decided, and how to configure an upstream, with a snippet to copy.
 */
export function noUpstreamError(routing: Routing, headers: Record<string, string>): HttpError {
  const { tier, chain } = routing.decision;
  const fallbacks = chain.filter((t) => t !== tier);
  const also = fallbacks.length > 0 ? ` (nor for its fallbacks ${fallbacks.join(', ')})` : '';
  const message =
    `triage routed this request to tier ${tier}, but no upstream model is configured for ` +
    `${tier}${also}. Add one to a configuration file and restart with ` +
    '`triage serve --config triage.yaml`, for example:\n' +
    'providers:\n' +
    '  openai: { baseUrl: https://api.openai.com/v1, apiKeyEnv: OPENAI_API_KEY }\n' +
    '  ollama: { baseUrl: http://127.0.0.1:11434/v1 }\n' +
    'tiers:\n' +
    '  SIMPLE: [ollama/llama3.2]\n' +
    '  MEDIUM: [openai/gpt-4o-mini]\n' +
    '  COMPLEX: [openai/gpt-4o]\n' +
    '  REASONING: [openai/o3-mini]\n' +
    'See docs/server.md for every option. POST /v1/route shows the decision alone.';
  return new HttpError(503, 'no_upstream', message, { headers });
}
