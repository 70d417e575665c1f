import { request } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { byModel } from '../testing/index.js';
import { chat, type Harness, post, startHarness } from './server.test-helpers.js';

/** Reads a response body whole, as bytes. */
async function bytesOf(url: string, body: unknown): Promise<{ status: number; bytes: Buffer }> {
  const res = await request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.statusCode, bytes: Buffer.from(await res.body.arrayBuffer()) };
}

describe('streaming through triage', () => {
  let h: Harness;
  /** Reads an answer from the fake upstream directly, then resets it (replies are numbered). */
  const direct = async (body: unknown) => {
    h.fake.reset();
    const answer = await bytesOf(`${h.fake.openAiBaseUrl}/chat/completions`, body);
    h.fake.reset();
    return answer;
  };
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());
  afterEach(() => {
    h.fake.reset();
    h.fake.reply('ok');
  });
  const completions = () => `${h.url}/v1/chat/completions`;
  const reply = {
    text: 'Streaming 🚀 works, même en français, 日本語も, across many small pieces of text.',
    chunkBytes: 7,
  };

  it('passes a stream through byte for byte', async () => {
    const body = chat('plain', {
      model: 'mid-a',
      stream: true,
      stream_options: { include_usage: true },
    });
    h.fake.reply(reply);
    const expected = await direct(body);
    const routed = await bytesOf(completions(), body);
    expect(routed.status).toBe(200);
    expect(expected.bytes.length).toBeGreaterThan(200);
    expect(routed.bytes.equals(expected.bytes)).toBe(true);
  });

  it('passes a stream decided by the classifier through unchanged (model rewritten upstream)', async () => {
    h.fake.reply(reply);
    const expected = await direct({ ...chat('x', { stream: true }), model: 'big' });
    const res = await request(completions(), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(chat('[COMPLEX] x', { stream: true })),
    });
    expect(res.headers['content-type']).toContain('text/event-stream');
    expect(res.headers['x-triage-model']).toBe('fake/big');
    expect(Buffer.from(await res.body.arrayBuffer()).equals(expected.bytes)).toBe(true);
  });

  it('passes a non-streamed answer through byte for byte', async () => {
    const body = chat('plain', { model: 'mid-a' });
    const expected = await direct(body);
    const routed = await bytesOf(completions(), body);
    expect(routed.bytes.equals(expected.bytes)).toBe(true);
  });

  it('never falls back after the first byte: a broken stream ends with an error event', async () => {
    h.fake.reply(
      byModel({
        'mid-a': { text: 'first answer that breaks midway through', closeAfterBytes: 420 },
        'mid-b': 'SECOND ANSWER',
      }),
    );
    const res = await post(completions(), chat('plain', { stream: true }));
    expect(res.status).toBe(200);
    expect(h.fake.chatRequests.map((r) => r.model)).toEqual(['mid-a']);
    expect(res.text).not.toContain('SECOND');
    const events = res.text.split('\n\n').filter(Boolean);
    // Every event before the error is whole (no half event glued to the error).
    for (const event of events.slice(0, -1)) {
      expect(() => JSON.parse(event.replace(/^data: /, ''))).not.toThrow();
      expect(JSON.parse(event.replace(/^data: /, '')).object).toBe('chat.completion.chunk');
    }
    const last = JSON.parse((events.at(-1) as string).replace(/^data: /, ''));
    expect(last.error.code).toBe('upstream_interrupted');
    expect(res.text).not.toContain('[DONE]');
    const metrics = await h.server.metrics.render();
    expect(metrics).toMatch(/triage_stream_interruptions_total\{model="fake\/mid-a"\} 1/);
  });

  it('falls back when a stream breaks before its first complete event', async () => {
    h.fake.reply(
      byModel({ 'mid-a': { text: 'broken early', closeAfterBytes: 20 }, 'mid-b': 'whole' }),
    );
    const res = await post(completions(), chat('plain', { stream: true }));
    expect(h.fake.chatRequests.map((r) => r.model)).toEqual(['mid-a', 'mid-b']);
    expect(res.text).toContain('"content":"whole"');
    expect(res.text.endsWith('data: [DONE]\n\n')).toBe(true);
  });
});

describe('client disconnects', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      config: (baseUrl) => ({
        providers: { fake: { baseUrl, timeoutMs: 10_000 } },
        tiers: { MEDIUM: ['fake/mid-a', 'fake/mid-b'] },
      }),
    });
  });
  afterAll(() => h.close());
  afterEach(() => {
    h.fake.reset();
    h.fake.reply('ok');
  });
  const completions = () => `${h.url}/v1/chat/completions`;

  it('cancels the upstream request when the client leaves mid-stream', async () => {
    h.fake.reply({ text: 'a long answer in many pieces '.repeat(20), intervalMs: 20 });
    const controller = new AbortController();
    const res = await request(completions(), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(chat('plain', { stream: true })),
      signal: controller.signal,
    });
    for await (const _chunk of res.body) {
      controller.abort();
      break;
    }
    await h.fake.whenAborted(1);
    expect(h.fake.chatRequests.map((r) => [r.model, r.outcome])).toEqual([
      ['mid-a', 'client-aborted'],
    ]);
  });

  it('cancels the upstream request when the client leaves before any answer', async () => {
    h.fake.reply({ hang: true });
    const controller = new AbortController();
    const pending = request(completions(), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(chat('plain')),
      signal: controller.signal,
    }).catch(() => undefined);
    await h.fake.whenRequests(1);
    controller.abort();
    await pending;
    await h.fake.whenAborted(1);
    // No fallback for a client that is gone.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(h.fake.chatRequests.map((r) => r.model)).toEqual(['mid-a']);
  });
});

describe('client disconnects during an LLM check', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ asyncMs: 5_000 });
  });
  afterAll(() => h.close());

  it('aborts the decision and never calls an upstream', async () => {
    const controller = new AbortController();
    const pending = request(`${h.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(chat('plain')),
      signal: controller.signal,
    }).catch(() => undefined);
    await expect.poll(() => h.tiers.seen.length).toBe(1);
    controller.abort();
    await pending;
    await expect.poll(() => h.tiers.seen[0]?.aborted).toBe(true);
    expect(h.fake.chatRequests).toHaveLength(0);
    // A client leaving is not a server error.
    await expect
      .poll(async () => h.server.metrics.render())
      .toMatch(/triage_errors_total\{kind="client_closed"\} 1/);
    expect(h.logs.text()).not.toContain('"level":50');
  });
});
