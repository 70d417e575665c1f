import { request } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { byModel, type FakeLlmServer, startFakeLlm } from './index.js';

let fake: FakeLlmServer;

beforeEach(async () => {
  fake = await startFakeLlm({ models: ['small', 'large'] });
});

afterEach(async () => {
  await fake.close();
});

async function post(
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, unknown>; text: string }> {
  const res = await request(`${fake.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.statusCode, headers: res.headers, text: await res.body.text() };
}

const chat = (extra: Record<string, unknown> = {}) => ({
  model: 'small',
  messages: [
    { role: 'system', content: 'Answer in one word.' },
    { role: 'user', content: 'Is the sky blue?' },
  ],
  ...extra,
});

/** The `data:` payloads of an SSE body, with the event names where present. */
function sse(text: string): { event?: string; data: string }[] {
  return text
    .split('\n\n')
    .filter((block) => block.length > 0)
    .map((block) => {
      const event = /^event: (.*)$/m.exec(block)?.[1];
      const data = /^data: (.*)$/m.exec(block)?.[1] ?? '';
      return event === undefined ? { data } : { event, data };
    });
}

describe('OpenAI chat completions', () => {
  it('answers in the chat.completion shape and records the request', async () => {
    fake.script('yes');
    const schema = { type: 'object', properties: { a: { type: 'string' } } };
    const res = await post(
      '/v1/chat/completions',
      chat({ response_format: { type: 'json_schema', json_schema: { name: 's', schema } } }),
      { authorization: 'Bearer sk-test' },
    );
    expect(res.status).toBe(200);
    const body = JSON.parse(res.text);
    expect(body).toMatchObject({
      object: 'chat.completion',
      model: 'small',
      choices: [
        { index: 0, message: { role: 'assistant', content: 'yes' }, finish_reason: 'stop' },
      ],
    });
    expect(body.usage.total_tokens).toBe(body.usage.prompt_tokens + body.usage.completion_tokens);
    const [recorded] = fake.requests;
    expect(recorded).toMatchObject({
      seq: 0,
      method: 'POST',
      path: '/v1/chat/completions',
      format: 'openai',
      model: 'small',
      system: 'Answer in one word.',
      prompt: 'Is the sky blue?',
      stream: false,
      schema,
      outcome: 'completed',
    });
    expect(recorded?.headers.authorization).toBe('Bearer sk-test');
  });

  it('streams chat.completion.chunk events ending with a usage chunk and [DONE]', async () => {
    const text = 'The sky looks blue because of Rayleigh scattering, mostly.';
    fake.reply(text);
    const res = await post(
      '/v1/chat/completions',
      chat({ stream: true, stream_options: { include_usage: true } }),
    );
    expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
    const events = sse(res.text);
    expect(events.at(-1)?.data).toBe('[DONE]');
    const chunks = events.slice(0, -1).map((e) => JSON.parse(e.data));
    expect(chunks.every((c) => c.object === 'chat.completion.chunk')).toBe(true);
    expect(chunks[0].choices[0].delta.role).toBe('assistant');
    const content = chunks.map((c) => c.choices[0]?.delta?.content ?? '').join('');
    expect(content).toBe(text);
    expect(chunks.length).toBeGreaterThan(5);
    expect(chunks.at(-2).choices[0].finish_reason).toBe('stop');
    expect(chunks.at(-1).choices).toEqual([]);
    expect(chunks.at(-1).usage.completion_tokens).toBeGreaterThan(0);
  });

  it('streams the same bytes for the same script on every run', async () => {
    const other = await startFakeLlm();
    try {
      const body = JSON.stringify(chat({ stream: true }));
      fake.reply('Déjà vu: 同じ答え 🙂 twice');
      other.reply('Déjà vu: 同じ答え 🙂 twice');
      const a = await request(`${fake.url}/v1/chat/completions`, { method: 'POST', body });
      const b = await request(`${other.url}/v1/chat/completions`, { method: 'POST', body });
      const [bytesA, bytesB] = [
        Buffer.from(await a.body.arrayBuffer()),
        Buffer.from(await b.body.arrayBuffer()),
      ];
      expect(bytesA.equals(bytesB)).toBe(true);
      const content = sse(bytesA.toString('utf8'))
        .slice(0, -1)
        .map((e) => JSON.parse(e.data).choices[0].delta.content ?? '')
        .join('');
      expect(content).toBe('Déjà vu: 同じ答え 🙂 twice');
    } finally {
      await other.close();
    }
  });

  it('lists its models', async () => {
    const res = await request(`${fake.openAiBaseUrl}/models`);
    const body = (await res.body.json()) as { data: { id: string }[] };
    expect(body.data.map((m) => m.id)).toEqual(['small', 'large']);
  });
});

describe('Anthropic messages', () => {
  const messages = (extra: Record<string, unknown> = {}) => ({
    model: 'claude-x',
    max_tokens: 100,
    system: 'Be brief.',
    messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi there' }] }],
    ...extra,
  });

  it('answers with a text block and records system and prompt', async () => {
    fake.script('Hello.');
    const res = await post('/v1/messages', messages(), { 'x-api-key': 'k' });
    expect(JSON.parse(res.text)).toMatchObject({
      type: 'message',
      role: 'assistant',
      model: 'claude-x',
      content: [{ type: 'text', text: 'Hello.' }],
      stop_reason: 'end_turn',
    });
    expect(fake.requests[0]).toMatchObject({ format: 'anthropic', system: 'Be brief.' });
    expect(fake.requests[0]?.prompt).toBe('Hi there');
  });

  it('answers a forced tool call with a tool_use block carrying the JSON', async () => {
    const schema = { type: 'object', properties: { label: { type: 'string' } } };
    fake.script({ json: { label: 'spam' } });
    const res = await post(
      '/v1/messages',
      messages({
        tools: [{ name: 'answer', input_schema: schema }],
        tool_choice: { type: 'tool', name: 'answer' },
      }),
    );
    expect(JSON.parse(res.text)).toMatchObject({
      content: [{ type: 'tool_use', name: 'answer', input: { label: 'spam' } }],
      stop_reason: 'tool_use',
    });
    expect(fake.requests[0]).toMatchObject({ schema, toolName: 'answer' });
  });

  it('streams the Messages event sequence', async () => {
    fake.script('One two three four.');
    const res = await post('/v1/messages', messages({ stream: true }));
    const events = sse(res.text);
    expect(events.map((e) => e.event)).toEqual([
      'message_start',
      'content_block_start',
      'ping',
      ...Array(4).fill('content_block_delta'),
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    const text = events
      .filter((e) => e.event === 'content_block_delta')
      .map((e) => JSON.parse(e.data).delta.text)
      .join('');
    expect(text).toBe('One two three four.');
  });

  it('streams a forced tool call as input_json_delta events', async () => {
    fake.script({ json: { label: 'a fairly long label value', score: 0.5 } });
    const res = await post(
      '/v1/messages',
      messages({
        stream: true,
        tools: [{ name: 'answer', input_schema: { type: 'object' } }],
        tool_choice: { type: 'tool', name: 'answer' },
      }),
    );
    const events = sse(res.text).map((e) => JSON.parse(e.data));
    expect(events[1]).toMatchObject({
      content_block: { type: 'tool_use', name: 'answer', input: {} },
    });
    const deltas = events.filter((e) => e.type === 'content_block_delta');
    expect(deltas.length).toBeGreaterThan(1);
    expect(JSON.parse(deltas.map((e) => e.delta.partial_json).join(''))).toEqual({
      label: 'a fairly long label value',
      score: 0.5,
    });
    expect(events.find((e) => e.type === 'message_delta').delta.stop_reason).toBe('tool_use');
  });

  it('sends Anthropic-style error bodies', async () => {
    fake.script({ status: 529, error: 'Overloaded' });
    const res = await post('/v1/messages', messages());
    expect(res.status).toBe(529);
    expect(JSON.parse(res.text)).toEqual({
      type: 'error',
      error: { type: 'overloaded_error', message: 'Overloaded' },
    });
  });
});

describe('prompt-cache usage', () => {
  const usage = {
    inputTokens: 100,
    cachedInputTokens: 900,
    cacheCreationInputTokens: 50,
    outputTokens: 20,
  };
  const anthropicBody = (extra: Record<string, unknown> = {}) => ({
    model: 'small',
    max_tokens: 10,
    messages: [{ role: 'user', content: 'Hi' }],
    ...extra,
  });

  it('reports cached tokens the OpenAI way, in JSON and in the streamed usage chunk', async () => {
    fake.reply({ text: 'yes', usage });
    const expected = {
      prompt_tokens: 1050,
      completion_tokens: 20,
      total_tokens: 1070,
      prompt_tokens_details: { cached_tokens: 900 },
    };
    expect(JSON.parse((await post('/v1/chat/completions', chat())).text).usage).toEqual(expected);
    const streamed = await post(
      '/v1/chat/completions',
      chat({ stream: true, stream_options: { include_usage: true } }),
    );
    const last = sse(streamed.text).at(-2)?.data ?? '';
    expect(JSON.parse(last).usage).toEqual(expected);
  });

  it('reports cache reads and writes the Anthropic way, in JSON and in message_start and message_delta', async () => {
    fake.reply({ text: 'yes', usage });
    const input = {
      input_tokens: 100,
      cache_creation_input_tokens: 50,
      cache_read_input_tokens: 900,
    };
    expect(JSON.parse((await post('/v1/messages', anthropicBody())).text).usage).toEqual({
      ...input,
      output_tokens: 20,
    });
    const events = sse((await post('/v1/messages', anthropicBody({ stream: true }))).text);
    const data = (name: string) => JSON.parse(events.find((e) => e.event === name)?.data ?? '');
    expect(data('message_start').message.usage).toEqual({ ...input, output_tokens: 1 });
    expect(data('message_delta').usage).toEqual({ ...input, output_tokens: 20 });
  });

  it('leaves the cache fields out when the reply names none', async () => {
    fake.reply({ text: 'yes', usage: { inputTokens: 7, outputTokens: 3 } });
    expect(JSON.parse((await post('/v1/chat/completions', chat())).text).usage).toEqual({
      prompt_tokens: 7,
      completion_tokens: 3,
      total_tokens: 10,
    });
    const events = sse((await post('/v1/messages', anthropicBody({ stream: true }))).text);
    const delta = JSON.parse(events.find((e) => e.event === 'message_delta')?.data ?? '');
    expect(delta.usage).toEqual({ output_tokens: 3 });
  });
});

describe('Ollama chat', () => {
  it('streams NDJSON by default, as Ollama does, and answers JSON with stream false', async () => {
    fake.reply('a b c');
    const streamed = await post('/api/chat', chat());
    const lines = streamed.text
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.message.content).join('')).toBe('a b c');
    expect(lines.at(-1)).toMatchObject({ done: true, done_reason: 'stop' });
    expect(lines.slice(0, -1).every((l) => l.done === false)).toBe(true);

    const format = { type: 'object', properties: { ok: { type: 'boolean' } } };
    const single = await post('/api/chat', chat({ stream: false, format }));
    expect(JSON.parse(single.text)).toMatchObject({
      model: 'small',
      message: { role: 'assistant', content: 'a b c' },
      done: true,
    });
    expect(fake.requests[1]).toMatchObject({ format: 'ollama', stream: false, schema: format });
  });

  it('sends Ollama-style error bodies', async () => {
    fake.script({ status: 404, error: "model 'x' not found" });
    const res = await post('/api/chat', chat({ stream: false }));
    expect(res.status).toBe(404);
    expect(JSON.parse(res.text)).toEqual({ error: "model 'x' not found" });
  });
});

describe('scripting', () => {
  it('plays a sequence of behaviours, then the default', async () => {
    fake.script({ status: 429, retryAfter: 2, error: 'slow down' }, { status: 500 }).reply('fine');
    const first = await post('/v1/chat/completions', chat());
    expect(first.status).toBe(429);
    expect(first.headers['retry-after']).toBe('2');
    expect(JSON.parse(first.text).error).toMatchObject({
      message: 'slow down',
      type: 'rate_limit_exceeded',
    });
    const second = await post('/v1/chat/completions', chat());
    expect(second.status).toBe(500);
    expect(JSON.parse(second.text).error.message).toBe('Internal Server Error');
    const third = await post('/v1/chat/completions', chat());
    expect(JSON.parse(third.text).choices[0].message.content).toBe('fine');
  });

  it('chooses replies by a function of the request', async () => {
    fake.reply((req) => (req.prompt.includes('prove') ? 'REASONING' : `SIMPLE from ${req.format}`));
    const a = await post('/v1/chat/completions', chat());
    expect(JSON.parse(a.text).choices[0].message.content).toBe('SIMPLE from openai');
    const b = await post('/v1/chat/completions', {
      model: 'small',
      messages: [{ role: 'user', content: 'prove it' }],
    });
    expect(JSON.parse(b.text).choices[0].message.content).toBe('REASONING');
  });

  it('answers per model name', async () => {
    fake.reply(byModel({ a: { status: 500, error: 'a is down' }, b: 'from b' }));
    const a = await post('/v1/chat/completions', chat({ model: 'a' }));
    const b = await post('/v1/chat/completions', chat({ model: 'b' }));
    const c = await post('/v1/chat/completions', chat({ model: 'c' }));
    expect(a.status).toBe(500);
    expect(JSON.parse(b.text).choices[0].message.content).toBe('from b');
    expect(c.status).toBe(404);
  });

  it('sends malformed bodies verbatim', async () => {
    fake.script({ raw: '{"choices": [' });
    const res = await post('/v1/chat/completions', chat());
    expect(res.status).toBe(200);
    expect(res.text).toBe('{"choices": [');
  });

  it('sends JSON replies whatever the schema asked for', async () => {
    fake.script({ json: { wrong: true } });
    const res = await post('/v1/chat/completions', chat());
    expect(JSON.parse(JSON.parse(res.text).choices[0].message.content)).toEqual({ wrong: true });
  });

  it('answers a handler failure or a non-JSON request with a 500 / 400 error body', async () => {
    fake.reply(() => {
      throw new Error('boom');
    });
    const failed = await post('/v1/chat/completions', chat());
    expect(failed.status).toBe(500);
    expect(JSON.parse(failed.text).error.message).toContain('boom');
    const bad = await post('/v1/chat/completions', '{not json');
    expect(bad.status).toBe(400);
    expect(fake.requests[1]?.rawBody).toBe('{not json');
  });

  it('answers unknown routes with 404', async () => {
    const res = await post('/v2/whatever', {});
    expect(res.status).toBe(404);
  });
});

describe('delivery', () => {
  it('waits before the headers', async () => {
    fake.script({ text: 'late', delayMs: 60 });
    const started = performance.now();
    const res = await request(`${fake.url}/v1/chat/completions`, {
      method: 'POST',
      body: JSON.stringify(chat()),
    });
    expect(performance.now() - started).toBeGreaterThanOrEqual(55);
    await res.body.text();
  });

  it('trickles the same body in many small writes', async () => {
    const body = JSON.stringify(chat());
    fake.script('same answer', { text: 'same answer', chunkBytes: 7, intervalMs: 1 });
    const whole = await request(`${fake.url}/v1/chat/completions`, { method: 'POST', body });
    const expected = await whole.body.text();
    const trickled = await request(`${fake.url}/v1/chat/completions`, { method: 'POST', body });
    let chunks = 0;
    let received = '';
    for await (const chunk of trickled.body) {
      chunks++;
      received += chunk.toString();
    }
    expect(chunks).toBeGreaterThan(10);
    // Same bytes, except for the request sequence number in the id.
    expect(received.replace('fake1', 'fake0')).toBe(expected);
  });

  it('counts a client that goes away from a hung request', async () => {
    fake.script({ hang: true });
    const controller = new AbortController();
    const pending = request(`${fake.url}/v1/chat/completions`, {
      method: 'POST',
      body: JSON.stringify(chat()),
      signal: controller.signal,
    });
    await fake.whenRequests(1);
    expect(fake.requests[0]?.outcome).toBe('pending');
    controller.abort();
    await expect(pending).rejects.toThrow();
    await fake.whenAborted(1);
    expect(fake.aborted).toBe(1);
    expect(fake.requests[0]?.outcome).toBe('client-aborted');
  });

  it('counts a client that goes away mid-stream', async () => {
    fake.script({ text: 'a b c d e f g h', intervalMs: 20 });
    const res = await request(`${fake.url}/v1/chat/completions`, {
      method: 'POST',
      body: JSON.stringify(chat({ stream: true })),
    });
    for await (const _chunk of res.body) break;
    res.body.destroy();
    await fake.whenAborted(1);
    expect(fake.requests[0]?.outcome).toBe('client-aborted');
  });

  it('stalls mid-body keeping the connection open', async () => {
    fake.script({ text: 'a long enough answer', stallAfterBytes: 20 });
    const controller = new AbortController();
    const res = await request(`${fake.url}/v1/chat/completions`, {
      method: 'POST',
      body: JSON.stringify(chat()),
      signal: controller.signal,
    });
    const first = await new Promise<Buffer>((resolve) => res.body.once('data', resolve));
    expect(first.length).toBe(20);
    setTimeout(() => controller.abort(), 30);
    await expect(res.body.text()).rejects.toThrow();
    await fake.whenAborted(1);
  });

  it('closes the connection mid-body and mid-stream', async () => {
    fake.script(
      { text: 'cut short', closeAfterBytes: 30 },
      { text: 'one two three four', closeAfterBytes: 300 },
    );
    const json = await request(`${fake.url}/v1/chat/completions`, {
      method: 'POST',
      body: JSON.stringify(chat()),
    });
    await expect(json.body.text()).rejects.toThrow();
    const stream = await request(`${fake.url}/v1/chat/completions`, {
      method: 'POST',
      body: JSON.stringify(chat({ stream: true })),
    });
    let received = '';
    await expect(
      (async () => {
        for await (const chunk of stream.body) received += chunk.toString();
      })(),
    ).rejects.toThrow();
    expect(Buffer.byteLength(received)).toBe(300);
    expect(received).not.toContain('[DONE]');
    await fake.waitFor(() => fake.requests.every((r) => r.outcome === 'server-closed'));
    expect(fake.aborted).toBe(0);
  });

  it('closes at once with hung connections open', async () => {
    fake.reply({ hang: true });
    const pending = request(`${fake.url}/v1/chat/completions`, {
      method: 'POST',
      body: JSON.stringify(chat()),
    });
    await fake.whenRequests(1);
    await fake.close();
    await expect(pending).rejects.toThrow();
    expect(fake.requests[0]?.outcome).toBe('server-closed');
    fake = await startFakeLlm();
  });
});
