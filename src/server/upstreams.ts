import { Pool } from 'undici';
import type { ServerConfig } from './config.js';
import { Secrets } from './secrets.js';

/** A configured upstream, ready to send requests: its connection pool and fixed headers. */
export interface Upstream {
  readonly name: string;
  /** Keep-alive connections to the upstream's origin. */
  readonly pool: Pool;
  /** Path of the chat-completions endpoint, e.g. `/v1/chat/completions`. */
  readonly path: string;
  /** The base URL's path without its trailing slash (e.g. `/v1`): other endpoints hang off it. */
  readonly basePath: string;
  /** The wire format it speaks. */
  readonly api: 'openai' | 'anthropic';
  /** Whether it serves the Responses API. */
  readonly responses: boolean;
  /** Headers sent with every request: content type, authorization, configured extras. */
  readonly headers: Readonly<Record<string, string>>;
  /** Longest silence once a streamed answer has started. */
  readonly idleTimeoutMs: number;
  /** Largest answer held whole (a non-streamed body, an error body); larger ones fail. */
  readonly responseLimitBytes: number;
  /** The keys removed from whatever the upstream says before it is relayed. */
  readonly secrets: Secrets;
}

/**
 * The upstreams of a configuration, one keep-alive undici `Pool` each. The API key is read from
 * the environment once, at start, and lives only in the `authorization` header sent upstream.
 */
export class Upstreams {
  readonly #byName = new Map<string, Upstream>();

  constructor(
    config: ServerConfig,
    env: Readonly<Record<string, string | undefined>> = process.env,
    secrets: Secrets = new Secrets([]),
  ) {
    for (const [name, provider] of Object.entries(config.providers)) {
      const url = new URL(provider.baseUrl);
      const headers: Record<string, string> = {
        ...lowerCased(provider.headers ?? {}),
        'content-type': 'application/json',
      };
      const key = provider.apiKeyEnv === undefined ? undefined : env[provider.apiKeyEnv];
      if (provider.api === 'anthropic') {
        headers['anthropic-version'] ??= ANTHROPIC_VERSION;
        if (key) headers['x-api-key'] = key;
      } else if (key) headers.authorization = `Bearer ${key}`;
      const basePath = url.pathname.replace(/\/+$/, '');
      const pool = new Pool(url.origin, {
        ...(provider.maxConnections === undefined ? {} : { connections: provider.maxConnections }),
        connect: { timeout: provider.connectTimeoutMs },
        // The first-byte and idle deadlines are enforced by the proxy, to the millisecond
        // (undici's timers for a second or more are checked every half second, and its body
        // timer would restart on each keep-alive comment). Undici's own are backstops only.
        headersTimeout: provider.timeoutMs,
        bodyTimeout: Math.max(provider.timeoutMs, provider.idleTimeoutMs) + BACKSTOP_MS,
      });
      this.#byName.set(name, {
        name,
        pool,
        path: `${basePath}${provider.api === 'anthropic' ? '/messages' : '/chat/completions'}`,
        basePath,
        api: provider.api,
        responses: provider.responses,
        headers,
        idleTimeoutMs: provider.idleTimeoutMs,
        responseLimitBytes: config.server.responseLimitBytes,
        secrets,
      });
    }
  }

  /** The upstream named `name` (validated configurations only name known ones). */
  get(name: string): Upstream {
    const upstream = this.#byName.get(name);
    if (!upstream) throw new Error(`unknown upstream ${name}`);
    return upstream;
  }

  /** Closes every pool, waiting for requests in flight. */
  async close(): Promise<void> {
    await Promise.all([...this.#byName.values()].map((u) => u.pool.close()));
  }

  /** Closes every pool at once, aborting requests in flight. */
  async destroy(): Promise<void> {
    await Promise.all([...this.#byName.values()].map((u) => u.pool.destroy()));
  }
}

/** The Messages API version sent to Anthropic upstreams unless a configured header says another. */
const ANTHROPIC_VERSION = '2023-06-01';

/** How much later than the proxy's own timers undici's fire. */
const BACKSTOP_MS = 5_000;

function lowerCased(headers: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) out[name.toLowerCase()] = value;
  return out;
}
