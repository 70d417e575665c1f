import { Writable } from 'node:stream';
import { request } from 'undici';
import type { SharedState } from '../state/shared-state.js';
import { type FakeLlmServer, startFakeLlm } from '../testing/index.js';
import type { Tier } from '../tier/tiers.js';
import { createTriageServer, type TriageServer } from './app.js';
import { parseServerConfig } from './config.js';
import type { ChatRequestBody, TierChoice, TierRouterPort } from './decide.js';

/**
 * Test doubles and fixtures for the server's tests: a tier router whose decision a test controls
 * through the prompt (`[COMPLEX] …`), and helpers that start the real server in front of the fake
 * LLM server on loopback.
 */

const CHAINS: Record<Tier, readonly Tier[]> = {
  SIMPLE: ['SIMPLE', 'MEDIUM', 'COMPLEX'],
  MEDIUM: ['MEDIUM', 'COMPLEX'],
  COMPLEX: ['COMPLEX', 'REASONING'],
  REASONING: ['REASONING'],
};

const FORCED = /^(?:triage\/)?(simple|medium|complex|reasoning)$/i;

/**
 * A tier router for tests: forced ids as the real one names them; otherwise the tier written at
 * the start of the last user message (`[COMPLEX] …`), MEDIUM when none. Optionally asynchronous,
 * like a router asking its LLM check.
 */
export function testTierRouter(options: { asyncMs?: number } = {}): TierRouterPort & {
  seen: AbortSignal[];
} {
  const seen: AbortSignal[] = [];
  const decide = (request: ChatRequestBody): TierChoice => {
    const model = typeof request.model === 'string' ? request.model : 'auto';
    const forced = FORCED.exec(model)?.[1];
    if (forced) {
      const tier = forced.toUpperCase() as Tier;
      return decision(tier, { forced: true, source: 'forced', confidence: 1 });
    }
    const last = request.messages.at(-1) as { content?: unknown } | undefined;
    const text = typeof last?.content === 'string' ? last.content : '';
    const tier = (/^\[(SIMPLE|MEDIUM|COMPLEX|REASONING)\]/.exec(text)?.[1] ?? 'MEDIUM') as Tier;
    return decision(tier, { forced: false, source: 'local', confidence: 0.9, score: 0.1 });
  };
  return {
    seen,
    modelIds: ['auto', 'triage/auto', 'simple', 'medium', 'complex', 'reasoning'],
    accepts: (model) => model === 'auto' || model === 'triage/auto' || FORCED.test(model),
    decide(request, cancel) {
      const asyncMs = options.asyncMs;
      if (asyncMs === undefined) return decide(request);
      const signal = cancel.signal;
      seen.push(signal);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => resolve(decide(request)), asyncMs);
        signal.addEventListener('abort', () => {
          clearTimeout(timer);
          reject(signal.reason);
        });
      });
    },
  };
}

function decision(
  tier: Tier,
  fields: Pick<TierChoice, 'forced' | 'source' | 'confidence'> & { score?: number },
): TierChoice {
  return {
    tier,
    chain: CHAINS[tier],
    signals: fields.forced ? ['forced by model id'] : ['test decision'],
    llmChecked: false,
    llmOverrode: false,
    llmMs: 0,
    ...fields,
  };
}

/** A log destination that keeps every line, for assertions on what was (not) logged. */
export function logCapture(): { stream: Writable; lines: string[]; text(): string } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      callback();
    },
  });
  return { stream, lines, text: () => lines.join('\n') };
}

/** A running server and fake upstream, closed by `close()`. */
export interface Harness {
  readonly server: TriageServer;
  readonly url: string;
  readonly fake: FakeLlmServer;
  readonly logs: ReturnType<typeof logCapture>;
  readonly tiers: ReturnType<typeof testTierRouter>;
  close(): Promise<void>;
}

/**
 * Starts a fake upstream (provider `fake`) and the server in front of it, with `config` merged
 * over a configuration whose tiers are: SIMPLE `fake/small`, MEDIUM `fake/mid-a` then
 * `fake/mid-b`, COMPLEX `fake/big`, REASONING `fake/think`.
 */
export async function startHarness(
  overrides: {
    config?: (fakeBaseUrl: string) => Record<string, unknown>;
    env?: Record<string, string>;
    asyncMs?: number;
    /** Listen backlog of both servers, for load tests (default Node's 511). */
    backlog?: number;
    /** The server's state (e.g. breakers on a clock of the test's); default: in memory. */
    state?: SharedState;
  } = {},
): Promise<Harness> {
  const backlog = overrides.backlog === undefined ? {} : { backlog: overrides.backlog };
  const fake = await startFakeLlm(backlog);
  const config =
    overrides.config?.(fake.openAiBaseUrl) ??
    ({
      // No test using the default is about upstream timeouts: far more than a busy machine needs.
      providers: { fake: { baseUrl: fake.openAiBaseUrl, timeoutMs: 10_000 } },
      tiers: {
        SIMPLE: ['fake/small'],
        MEDIUM: ['fake/mid-a', 'fake/mid-b'],
        COMPLEX: ['fake/big'],
        REASONING: ['fake/think'],
      },
    } as Record<string, unknown>);
  const env = overrides.env ?? {};
  const logs = logCapture();
  const tiers = testTierRouter(
    overrides.asyncMs === undefined ? {} : { asyncMs: overrides.asyncMs },
  );
  const server = createTriageServer({
    tiers,
    config: parseServerConfig(config, { env }),
    env,
    logDestination: logs.stream,
    processMetrics: false,
    ...(overrides.state ? { state: overrides.state } : {}),
  });
  const url = await server.listen({ port: 0, ...backlog });
  return {
    server,
    url,
    fake,
    logs,
    tiers,
    async close() {
      await server.close();
      await fake.close();
    },
  };
}

/** Posts JSON (or a raw string) and returns status, headers and the body as text. */
export async function post(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}> {
  const response = await request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return {
    status: response.statusCode,
    headers: response.headers,
    text: await response.body.text(),
  };
}

/** A chat request body. */
export function chat(
  prompt: string,
  fields: Record<string, unknown> = {},
): Record<string, unknown> {
  return { model: 'auto', messages: [{ role: 'user', content: prompt }], ...fields };
}
