import { describe, expect, it } from 'vitest';
import { parseProviderConfig } from './config.js';
import { LlmHttpError, LlmInvalidOutputError } from './errors.js';
import { KINDS, TEST_KEY, useFakeLlm } from './fake.test-helpers.js';

const llm = useFakeLlm();

const schema = {
  type: 'object',
  properties: {
    label: { type: 'string', enum: ['spam', 'ham'] },
    confidence: { type: 'number' },
  },
  required: ['label'],
} as const;

describe.each(KINDS)('%s adapter over real HTTP', (kind) => {
  it('completes a chat: text, usage, model, latency, finish reason', async () => {
    llm.fake.script({ text: 'Paris.', usage: { inputTokens: 12, outputTokens: 3 } });
    const response = await llm.provider(kind).complete({
      system: 'Answer briefly.',
      messages: [{ role: 'user', content: 'Capital of France?' }],
      maxTokens: 20,
      temperature: 0.2,
    });
    expect(response.text).toBe('Paris.');
    expect(response.usage).toEqual({ inputTokens: 12, outputTokens: 3 });
    expect(response.model).toBe('fake-model');
    expect(response.latencyMs).toBeGreaterThan(0);
    expect(response.json).toBeUndefined();
    expect(response.finishReason).toBeDefined();
    const [received] = llm.fake.requests;
    expect(received?.format).toBe(kind);
    expect(received?.system).toBe('Answer briefly.');
    expect(received?.prompt).toBe('Capital of France?');
    expect(received?.stream).toBe(false);
  });

  it('asks for structured output natively and returns the validated JSON', async () => {
    llm.fake.script({ json: { label: 'spam', confidence: 0.9 } });
    const response = await llm.provider(kind).complete({
      messages: [{ role: 'user', content: 'WIN A PRIZE' }],
      schema,
      schemaName: 'verdict',
    });
    expect(response.json).toEqual({ label: 'spam', confidence: 0.9 });
    expect(llm.fake.requests[0]?.schema).toEqual(schema);
  });

  it('rejects a reply that violates the schema with LlmInvalidOutputError', async () => {
    llm.fake.script({ json: { label: 'maybe' } });
    const call = llm
      .provider(kind)
      .complete({ messages: [{ role: 'user', content: 'x' }], schema });
    await expect(call).rejects.toThrow(LlmInvalidOutputError);
    await expect(call).rejects.toThrow(/does not match the schema: \/label must be one of/);
  });

  it('rejects a body that is not JSON, and one without the format shape', async () => {
    llm.fake.script({ raw: '{"choices": [' }, { raw: '{"unexpected": true}' });
    const p = llm.provider(kind);
    const ask = () => p.complete({ messages: [{ role: 'user', content: 'x' }] });
    await expect(ask()).rejects.toThrow(/response body is not JSON/);
    await expect(ask()).rejects.toThrow(LlmInvalidOutputError);
  });

  it('reports HTTP errors with the provider message from its error body', async () => {
    llm.fake.script({ status: 400, error: 'max_tokens is too large' });
    const error = await llm
      .provider(kind)
      .complete({ messages: [{ role: 'user', content: 'x' }] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LlmHttpError);
    expect(error).toMatchObject({
      status: 400,
      providerMessage: 'max_tokens is too large',
      retriable: false,
      provider: `fake-${kind}`,
    });
    expect(llm.fake.requests).toHaveLength(1);
  });

  it('sends the model of the request over the default', async () => {
    llm.fake.script('ok');
    await llm
      .provider(kind)
      .complete({ messages: [{ role: 'user', content: 'x' }], model: 'other' });
    expect(llm.fake.requests[0]?.model).toBe('other');
  });
});

describe('OpenAI-compatible wire format', () => {
  it('sends the key as a Bearer token and the sampling fields', async () => {
    await llm.provider('openai', { headers: { 'X-Title': 'triage tests' } }).complete({
      messages: [{ role: 'user', content: 'hi' }],
      maxTokens: 5,
      temperature: 0,
      seed: 7,
    });
    const received = llm.fake.requests[0];
    expect(received?.headers.authorization).toBe(`Bearer ${TEST_KEY}`);
    expect(received?.headers['x-title']).toBe('triage tests');
    expect(received?.body).toMatchObject({ max_tokens: 5, temperature: 0, seed: 7, stream: false });
  });

  it('uses response_format json_schema with the schema name and optional strict mode', async () => {
    llm.fake.script({ json: { label: 'ham' } });
    await llm
      .provider('openai', {
        strictSchema: true,
        maxTokensField: 'max_completion_tokens',
      })
      .complete({
        messages: [{ role: 'user', content: 'x' }],
        schema,
        schemaName: 'my verdict!',
        maxTokens: 9,
      });
    expect(llm.fake.requests[0]?.body).toMatchObject({
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'my_verdict_', schema, strict: true },
      },
      max_completion_tokens: 9,
    });
  });

  it('in json_object and prompt modes puts the schema in the system prompt and reads fenced JSON', async () => {
    llm.fake.script(
      { text: 'Sure! ```json\n{"label": "ham"}\n```' },
      { text: 'Here it is: {"label": "spam", "confidence": 1} Hope that helps.' },
    );
    const objectMode = await llm.provider('openai', { structuredOutput: 'json_object' }).complete({
      system: 'Classify.',
      messages: [{ role: 'user', content: 'x' }],
      schema,
    });
    expect(objectMode.json).toEqual({ label: 'ham' });
    expect(llm.fake.requests[0]?.body).toMatchObject({ response_format: { type: 'json_object' } });
    expect(llm.fake.requests[0]?.system).toMatch(/^Classify\.\n\nReply with a single JSON object/);
    const promptMode = await llm.provider('openai', { structuredOutput: 'prompt' }).complete({
      messages: [{ role: 'user', content: 'x' }],
      schema,
    });
    expect(promptMode.json).toEqual({ label: 'spam', confidence: 1 });
    expect(llm.fake.requests[1]?.body).not.toHaveProperty('response_format');
    expect(llm.fake.requests[1]?.system).toContain('"enum":["spam","ham"]');
  });

  it('names a truncated reply when its JSON is broken', async () => {
    llm.fake.script({ text: '{"label": "sp', finishReason: 'length' });
    await expect(
      llm.provider('openai', { structuredOutput: 'prompt' }).complete({
        messages: [{ role: 'user', content: 'x' }],
        schema,
      }),
    ).rejects.toThrow(/no JSON object \(finish reason: length\)/);
  });
});

describe('Anthropic wire format', () => {
  it('sends x-api-key, the API version and a default max_tokens', async () => {
    await llm.provider('anthropic').complete({ messages: [{ role: 'user', content: 'hi' }] });
    const received = llm.fake.requests[0];
    expect(received?.headers['x-api-key']).toBe(TEST_KEY);
    expect(received?.headers['anthropic-version']).toBe('2023-06-01');
    expect(received?.headers.authorization).toBeUndefined();
    expect(received?.body).toMatchObject({ max_tokens: 1024 });
  });

  it('forces a tool call for structured output', async () => {
    llm.fake.script({ json: { label: 'ham' } });
    await llm.provider('anthropic').complete({
      messages: [{ role: 'user', content: 'x' }],
      schema,
      schemaName: 'verdict',
    });
    expect(llm.fake.requests[0]?.body).toMatchObject({
      tools: [{ name: 'verdict', input_schema: schema }],
      tool_choice: { type: 'tool', name: 'verdict' },
    });
  });

  it('wraps a schema whose root is not an object, and unwraps the answer', async () => {
    const tier = { type: 'string', enum: ['SIMPLE', 'COMPLEX'] };
    llm.fake.script({ json: { value: 'COMPLEX' } });
    const response = await llm.provider('anthropic').complete({
      messages: [{ role: 'user', content: 'x' }],
      schema: tier,
    });
    expect(response.json).toBe('COMPLEX');
    expect(llm.fake.requests[0]?.schema).toEqual({
      type: 'object',
      properties: { value: tier },
      required: ['value'],
    });
  });

  it('falls back to JSON in the text when the model did not call the tool', async () => {
    llm.fake.script({ text: 'I think: {"label": "spam"}' });
    const response = await llm.provider('anthropic').complete({
      messages: [{ role: 'user', content: 'x' }],
      schema,
    });
    expect(response.json).toEqual({ label: 'spam' });
  });
});

describe('Ollama wire format', () => {
  it('passes the schema as format and sampling settings as options, without a key header unless set', async () => {
    llm.fake.script({ json: { label: 'ham' } });
    await llm.provider('ollama', { apiKeyEnv: undefined }).complete({
      system: 'Classify.',
      messages: [{ role: 'user', content: 'x' }],
      schema,
      temperature: 0,
      seed: 3,
      maxTokens: 50,
    });
    const received = llm.fake.requests[0];
    expect(received?.body).toMatchObject({
      format: schema,
      stream: false,
      options: { temperature: 0, seed: 3, num_predict: 50 },
    });
    expect(received?.headers.authorization).toBeUndefined();
  });

  it("sends the configured options (num_ctx, top_p, …), the call's own settings winning", async () => {
    llm.fake.script({ text: 'ok' });
    await llm
      .provider('ollama', { apiKeyEnv: undefined, options: { num_ctx: 4096, top_p: 1, seed: 9 } })
      .complete({ messages: [{ role: 'user', content: 'x' }], temperature: 0, seed: 0 });
    expect(llm.fake.requests[0]?.body).toMatchObject({
      options: { num_ctx: 4096, top_p: 1, temperature: 0, seed: 0 },
    });
  });

  it('refuses options on another kind', async () => {
    expect(() =>
      parseProviderConfig({ id: 'x', kind: 'openai', model: 'm', options: { top_p: 1 } }),
    ).toThrow(/\/options applies to kind ollama only/);
  });
});
