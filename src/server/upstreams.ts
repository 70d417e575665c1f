import { Pool } from 'undici';
import type { ServerConfig } from './config.js';

/** A configured upstream, ready to send requests: its connection pool and fixed headers. */
export interface Upstream {
  readonly name: string;
  /** Keep-alive connections to the upstream's origin. */
  readonly pool: Pool;
  /** Path of the chat-completions endpoint, e.g. `/v1/chat/completions`. */
  readonly path: string;
  /** Headers sent with every request: content type, authorization, configured extras. */
  readonly headers: Readonly<Record<string, string>>;
  readonly idleTimeoutMs: number;
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
  ) {
    for (const [name, provider] of Object.entries(config.providers)) {
      const url = new URL(provider.baseUrl);
      const headers: Record<string, string> = {
        ...lowerCased(provider.headers ?? {}),
        'content-type': 'application/json',
      };
      const key = provider.apiKeyEnv === undefined ? undefined : env[provider.apiKeyEnv];
      if (key) headers.authorization = `Bearer ${key}`;
      const pool = new Pool(url.origin, {
        ...(provider.maxConnections === undefined ? {} : { connections: provider.maxConnections }),
        connect: { timeout: provider.connectTimeoutMs },
        // The first-byte deadline is enforced by the proxy (it spans headers and first event);
        // undici's own header timer is set to the same bound as a backstop.
        headersTimeout: provider.timeoutMs,
        bodyTimeout: provider.idleTimeoutMs,
      });
      this.#byName.set(name, {
        name,
        pool,
        path: `${url.pathname.replace(/\/+$/, '')}/chat/completions`,
        headers,
        idleTimeoutMs: provider.idleTimeoutMs,
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

function lowerCased(headers: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) out[name.toLowerCase()] = value;
  return out;
}
