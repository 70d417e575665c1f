import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { settled, settlesWithin, until } from '../../test/timing.js';
import { createProvider } from './config.js';
import { LlmHttpError, LlmNetworkError, LlmTimeoutError } from './errors.js';
import { fakeProvider, KINDS, useFakeLlm, whenAbandonedClosed } from './fake.test-helpers.js';

const llm = useFakeLlm();

const ask = { messages: [{ role: 'user' as const, content: 'hello' }] };

/** Runs `call`, returning what it threw and how long it took. */
async function timed(call: () => Promise<unknown>): Promise<{ error: unknown; ms: number }> {
  const started = performance.now();
  try {
    await call();
    return { error: undefined, ms: performance.now() - started };
  } catch (error) {
    return { error, ms: performance.now() - started };
  }
}

/**
 * Upper time bounds are checked with `settlesWithin` (test/timing.ts), started once the request
 * has reached the fake server or the call has ended (either way its deadline is armed by then):
 * it holds however busy the machine is, while a missing or longer deadline still fails it.
 */
const armed = (call: Promise<unknown>) => {
  const done = settled(call);
  return until(() => done() || llm.fake.chatRequests.length > 0);
};

describe.each(KINDS)('%s: strict timeouts', (kind) => {
  const timeoutMs = 150;
  // The bound: a call is abandoned within its timeout + 50 ms, whatever the server does.
  const cases = [
    ['hangs before the headers', { hang: true }],
    ['is slow to send the headers', { text: 'late', delayMs: 5000 }],
    ['hangs mid-body', { text: 'a reply that stops half way', stallAfterBytes: 10 }],
    ['trickles the body', { text: 'slow', chunkBytes: 1, intervalMs: 40 }],
  ] as const;

  it.each(cases)('cuts off a server that %s within timeout + 50 ms', async (_what, behaviour) => {
    llm.fake.reply(behaviour);
    const provider = fakeProvider(kind, llm.fake, { timeoutMs, maxRetries: 3 });
    try {
      const call = timed(() => provider.complete(ask));
      await armed(call);
      expect(await settlesWithin(call, timeoutMs + 50)).toBe(true);
      const { error, ms } = await call;
      expect(error).toBeInstanceOf(LlmTimeoutError);
      expect(error).toMatchObject({ code: 'llm_timeout', timeoutMs, provider: `fake-${kind}` });
      expect(ms).toBeGreaterThanOrEqual(timeoutMs - 1);
      // The abandoned request is really cancelled: the server sees the connection close.
      await whenAbandonedClosed(llm.fake);
      expect(provider.stats).toMatchObject({ timeouts: 1, attempts: 1 });
    } finally {
      await provider.close();
    }
  });
});

describe('retries', () => {
  it('retries 5xx and 429 with backoff, then succeeds', async () => {
    llm.fake.script(
      { status: 500 },
      { status: 503, error: 'overloaded' },
      { status: 429 },
      'finally',
    );
    const provider = fakeProvider('openai', llm.fake, { maxRetries: 3 });
    const response = await provider.complete(ask);
    expect(response.text).toBe('finally');
    expect(llm.fake.chatRequests).toHaveLength(4);
    expect(provider.stats).toMatchObject({ calls: 1, attempts: 4, retries: 3, failures: 0 });
    await provider.close();
  });

  it('gives up after maxRetries with the last error', async () => {
    llm.fake.reply({ status: 502, error: 'bad gateway' });
    const provider = fakeProvider('anthropic', llm.fake, { maxRetries: 2 });
    const error = await provider.complete(ask).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LlmHttpError);
    expect(error).toMatchObject({ status: 502, providerMessage: 'bad gateway', retriable: true });
    expect(llm.fake.chatRequests).toHaveLength(3);
    await provider.close();
  });

  it('does not retry a client error', async () => {
    llm.fake.reply({ status: 401, error: 'invalid key' });
    const provider = fakeProvider('ollama', llm.fake, { maxRetries: 3 });
    await expect(provider.complete(ask)).rejects.toMatchObject({ status: 401 });
    expect(llm.fake.chatRequests).toHaveLength(1);
    await provider.close();
  });

  it('waits as long as Retry-After says', async () => {
    llm.fake.script({ status: 429, retryAfter: 0.2 }, 'after the wait');
    const provider = fakeProvider('openai', llm.fake, { maxRetries: 1 });
    const { ms } = await timed(() => provider.complete(ask));
    expect(llm.fake.chatRequests).toHaveLength(2);
    expect(ms).toBeGreaterThanOrEqual(195);
    await provider.close();
  });

  it('fails at once with the 429 when Retry-After runs past the deadline', async () => {
    // The deadline (60 s) is longer than the test's own limit (20 s): a call that waited for
    // Retry-After, or for its deadline, would fail the test by timing out.
    llm.fake.script({ status: 429, retryAfter: 120, error: 'rate limited' }, 'never asked');
    const provider = fakeProvider('openai', llm.fake, { maxRetries: 3, timeoutMs: 60_000 });
    const error = await provider.complete(ask).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LlmHttpError);
    expect(error).toMatchObject({ status: 429, retryAfterMs: 120_000 });
    expect(llm.fake.chatRequests).toHaveLength(1);
    await provider.close();
  });

  it('retries a connection closed mid-body as a network error', async () => {
    llm.fake.script({ text: 'broken', closeAfterBytes: 20 }, 'whole');
    const provider = fakeProvider('openai', llm.fake, { maxRetries: 1 });
    expect((await provider.complete(ask)).text).toBe('whole');
    expect(provider.stats.retries).toBe(1);
    llm.fake.script({ text: 'broken', closeAfterBytes: 20 });
    const failing = fakeProvider('openai', llm.fake, { maxRetries: 0 });
    const error = await failing.complete(ask).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LlmNetworkError);
    expect((error as Error).message).toMatch(/connection broke while reading the response/);
    await Promise.all([provider.close(), failing.close()]);
  });

  it('keeps every retry inside the one deadline', async () => {
    // Two 500s, then a server that hangs. Retries wait 100 ms each, so the hung attempt starts
    // 200 ms or more after the first: with a deadline of its own it would end 1,200 ms or more
    // after the first request arrived, past the reference timer of 1,050 ms.
    llm.fake.script({ status: 500 }, { status: 500 }).reply({ hang: true });
    const provider = fakeProvider('openai', llm.fake, {
      maxRetries: 10,
      timeoutMs: 1000,
      retryBaseMs: 100,
      retryMaxMs: 100,
    });
    const call = timed(() => provider.complete(ask));
    await armed(call);
    expect(await settlesWithin(call, 1050)).toBe(true);
    const { error } = await call;
    // Out of time either mid-attempt (a timeout) or before a retry could fit (the last 500).
    expect(error instanceof LlmTimeoutError || error instanceof LlmHttpError).toBe(true);
    expect(llm.fake.chatRequests.length).toBeGreaterThan(1);
    expect(llm.fake.chatRequests.length).toBeLessThanOrEqual(3);
    await provider.close();
  });

  it('reports a refused connection as a retriable network error, after retrying', async () => {
    const port = await freePort();
    const provider = createProvider({
      id: 'nowhere',
      kind: 'openai',
      baseUrl: `http://127.0.0.1:${port}/v1`,
      model: 'm',
      maxRetries: 2,
      retryBaseMs: 1,
    });
    const error = await provider.complete(ask).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LlmNetworkError);
    expect(error).toMatchObject({ retriable: true, code: 'llm_network' });
    expect((error as Error).message).toMatch(/^nowhere: request failed: ECONNREFUSED/);
    expect(provider.stats).toMatchObject({ attempts: 3, retries: 2, failures: 1 });
    await provider.close();
  });
});

describe('cancellation', () => {
  it('rejects with the signal reason and cancels the request when the caller aborts', async () => {
    llm.fake.reply({ hang: true });
    const provider = fakeProvider('openai', llm.fake);
    const controller = new AbortController();
    const call = provider.complete({ ...ask, signal: controller.signal });
    await llm.fake.whenRequests(1);
    const reason = new Error('client went away');
    controller.abort(reason);
    await expect(call).rejects.toBe(reason);
    await llm.fake.whenAborted(1);
    await provider.close();
  });

  it('does not call the server for an already aborted signal', async () => {
    const provider = fakeProvider('openai', llm.fake);
    const controller = new AbortController();
    controller.abort(new Error('gone'));
    await expect(provider.complete({ ...ask, signal: controller.signal })).rejects.toThrow('gone');
    expect(llm.fake.requests).toHaveLength(0);
    await provider.close();
  });

  it('takes a per-call timeout over the provider default', async () => {
    llm.fake.reply({ hang: true });
    const provider = fakeProvider('ollama', llm.fake, { timeoutMs: 10_000 });
    const call = timed(() => provider.complete({ ...ask, timeoutMs: 60 }));
    await armed(call);
    expect(await settlesWithin(call, 110)).toBe(true);
    expect((await call).error).toMatchObject({ timeoutMs: 60 });
    await provider.close();
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
