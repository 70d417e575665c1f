import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, post, startHarness } from './server.test-helpers.js';

/**
 * Both wire formats in and out, through the official SDKs: Anthropic Messages to an
 * OpenAI-compatible upstream (translated) and to an Anthropic upstream (native), and chat
 * completions to an Anthropic upstream (translated). SIMPLE goes to the OpenAI-compatible
 * `fake/small`, COMPLEX (`[COMPLEX] …`) to the Anthropic `claude/big`; both are the fake server.
 */

let h: Harness;
let anthropic: Anthropic;
let openai: OpenAI;

beforeAll(async () => {
  h = await startHarness({
    config: (base) => ({
      providers: {
        fake: { baseUrl: base, timeoutMs: 10_000 },
        claude: { baseUrl: base, api: 'anthropic', timeoutMs: 10_000 },
      },
      tiers: { SIMPLE: ['fake/small'], COMPLEX: ['claude/big'] },
    }),
  });
  anthropic = new Anthropic({ baseURL: h.url, apiKey: 'unused', maxRetries: 0 });
  openai = new OpenAI({ baseURL: `${h.url}/v1`, apiKey: 'unused', maxRetries: 0 });
});

afterAll(() => h.close());

beforeEach(() => {
  h.fake.reset();
  h.fake.reply({ text: 'Lima is the capital.', usage: { inputTokens: 21, outputTokens: 6 } });
});

const USER = (text: string) => [{ role: 'user' as const, content: text }];

describe('Anthropic Messages to an OpenAI-compatible upstream', () => {
  it('answers JSON: text, stop reason and usage, the system prompt sent as a system message', async () => {
    const message = await anthropic.messages.create({
      model: 'simple',
      max_tokens: 100,
      system: [{ type: 'text', text: 'Answer in one sentence.' }],
      messages: USER('What is the capital of Peru?'),
    });
    expect(message.type).toBe('message');
    expect(message.role).toBe('assistant');
    expect(message.content).toEqual([{ type: 'text', text: 'Lima is the capital.' }]);
    expect(message.stop_reason).toBe('end_turn');
    expect(message.usage).toMatchObject({ input_tokens: 21, output_tokens: 6 });
    const sent = h.fake.chatRequests[0]!;
    expect(sent.format).toBe('openai');
    expect(sent.model).toBe('small');
    expect(sent.system).toBe('Answer in one sentence.');
    expect((sent.body as { max_tokens: number }).max_tokens).toBe(100);
  });

  it('streams: text deltas, stop reason and usage, event by event', async () => {
    h.fake.reply({
      text: 'Lima is the capital of Peru.',
      usage: { inputTokens: 30, outputTokens: 7 },
      finishReason: 'length',
    });
    const stream = anthropic.messages.stream({
      model: 'simple',
      max_tokens: 7,
      messages: USER('What is the capital of Peru?'),
    });
    const deltas: string[] = [];
    stream.on('text', (text) => deltas.push(text));
    const message = await stream.finalMessage();
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('')).toBe('Lima is the capital of Peru.');
    expect(message.content).toEqual([{ type: 'text', text: 'Lima is the capital of Peru.' }]);
    expect(message.stop_reason).toBe('max_tokens');
    expect(message.usage).toMatchObject({ input_tokens: 30, output_tokens: 7 });
    // The upstream was asked for the stream's usage, to count it.
    expect(h.fake.chatRequests[0]!.body).toMatchObject({ stream_options: { include_usage: true } });
  });

  it('translates tool use both ways, tool results and images included', async () => {
    h.fake.reply({ json: { city: 'Lima' }, usage: { inputTokens: 40, outputTokens: 9 } });
    const tools = [
      {
        name: 'weather',
        description: 'The weather in a city',
        input_schema: {
          type: 'object' as const,
          properties: { city: { type: 'string' } },
          required: ['city'],
        },
      },
    ];
    const png = Buffer.from('fake image bytes').toString('base64');
    const message = await anthropic.messages.create({
      model: 'simple',
      max_tokens: 100,
      tools,
      tool_choice: { type: 'tool', name: 'weather' },
      messages: [
        {
          role: 'user',
          content: [
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: png } },
            { type: 'text', text: 'Where is this? Then get the weather.' },
          ],
        },
      ],
    });
    expect(message.stop_reason).toBe('tool_use');
    expect(message.content).toEqual([
      { type: 'tool_use', id: 'call_fake0', name: 'weather', input: { city: 'Lima' } },
    ]);
    const first = h.fake.chatRequests[0]!.body as Record<string, unknown>;
    expect(first.tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'weather',
          description: 'The weather in a city',
          parameters: tools[0]!.input_schema,
        },
      },
    ]);
    expect(first.tool_choice).toEqual({ type: 'function', function: { name: 'weather' } });
    expect((first.messages as { content: unknown }[])[0]!.content).toEqual([
      { type: 'image_url', image_url: { url: `data:image/png;base64,${png}` } },
      { type: 'text', text: 'Where is this? Then get the weather.' },
    ]);

    h.fake.reply('It is sunny in Lima.');
    const next = await anthropic.messages.create({
      model: 'simple',
      max_tokens: 100,
      tools,
      messages: [
        { role: 'user', content: 'Weather in Lima?' },
        { role: 'assistant', content: message.content },
        {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 'call_fake0', content: 'sunny, 24 °C' }],
        },
      ],
    });
    expect(next.content).toEqual([{ type: 'text', text: 'It is sunny in Lima.' }]);
    const second = h.fake.chatRequests[1]!.body as { messages: unknown[] };
    expect(second.messages.slice(1)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_fake0',
            type: 'function',
            function: { name: 'weather', arguments: '{"city":"Lima"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_fake0', content: 'sunny, 24 °C' },
    ]);
  });

  it('streams tool use as tool_use blocks with input_json deltas', async () => {
    h.fake.reply({ json: { city: 'Lima', days: 3 } });
    const stream = anthropic.messages.stream({
      model: 'simple',
      max_tokens: 100,
      tools: [{ name: 'forecast', input_schema: { type: 'object' } }],
      tool_choice: { type: 'tool', name: 'forecast' },
      messages: USER('Forecast for Lima'),
    });
    const message = await stream.finalMessage();
    expect(message.stop_reason).toBe('tool_use');
    expect(message.content).toEqual([
      { type: 'tool_use', id: 'call_fake0', name: 'forecast', input: { city: 'Lima', days: 3 } },
    ]);
  });
});

describe('Anthropic Messages to an Anthropic upstream', () => {
  it('passes JSON and streams through natively, model rewritten', async () => {
    const message = await anthropic.messages.create({
      model: 'auto',
      max_tokens: 50,
      system: 'Be brief.',
      messages: USER('[COMPLEX] Prove it.'),
    });
    expect(message.content).toEqual([{ type: 'text', text: 'Lima is the capital.' }]);
    expect(message.usage).toMatchObject({ input_tokens: 21, output_tokens: 6 });
    const sent = h.fake.chatRequests[0]!;
    expect(sent.format).toBe('anthropic');
    expect(sent.model).toBe('big');
    expect(sent.system).toBe('Be brief.');

    const stream = anthropic.messages.stream({
      model: 'auto',
      max_tokens: 50,
      messages: USER('[COMPLEX] Prove it.'),
    });
    const streamed = await stream.finalMessage();
    expect(streamed.content).toEqual([{ type: 'text', text: 'Lima is the capital.' }]);
    expect(streamed.usage).toMatchObject({ input_tokens: 21, output_tokens: 6 });
  });

  it('counts tokens at the upstream, or estimates them locally', async () => {
    const counted = await anthropic.messages.countTokens({
      model: 'auto',
      messages: USER('[COMPLEX] Count these words, please.'),
    });
    expect(counted.input_tokens).toBe(Math.ceil('[COMPLEX] Count these words, please.'.length / 4));
    expect(h.fake.requests.at(-1)!.path).toBe('/v1/messages/count_tokens');
    const estimated = await post(`${h.url}/v1/messages/count_tokens`, {
      model: 'simple',
      messages: USER('Sixteen chars!!!'),
    });
    expect(estimated.headers['x-triage-estimate']).toBe('true');
    expect(JSON.parse(estimated.text)).toEqual({ input_tokens: 4 + 4 });
  });
});

describe('chat completions to an Anthropic upstream', () => {
  it('answers JSON and streams, with usage', async () => {
    const completion = await openai.chat.completions.create({
      model: 'complex',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Capital of Peru?' },
      ],
    });
    expect(completion.choices[0]!.message.content).toBe('Lima is the capital.');
    expect(completion.choices[0]!.finish_reason).toBe('stop');
    expect(completion.usage).toMatchObject({ prompt_tokens: 21, completion_tokens: 6 });
    const sent = h.fake.chatRequests[0]!;
    expect(sent.format).toBe('anthropic');
    expect(sent.system).toBe('Be brief.');
    expect((sent.body as { max_tokens: number }).max_tokens).toBe(4096);

    const stream = await openai.chat.completions.create({
      model: 'complex',
      messages: USER('Capital of Peru?'),
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    let finish: string | null = null;
    let usage: OpenAI.CompletionUsage | undefined;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
      if (chunk.usage) usage = chunk.usage;
    }
    expect(text).toBe('Lima is the capital.');
    expect(finish).toBe('stop');
    expect(usage).toMatchObject({ prompt_tokens: 21, completion_tokens: 6, total_tokens: 27 });
  });

  it('translates tool calls and tool results to Anthropic blocks', async () => {
    h.fake.reply({ json: { city: 'Lima' } });
    const completion = await openai.chat.completions.create({
      model: 'complex',
      messages: USER('Weather in Lima?'),
      tools: [{ type: 'function', function: { name: 'weather', parameters: { type: 'object' } } }],
      tool_choice: { type: 'function', function: { name: 'weather' } },
    });
    const choice = completion.choices[0]!;
    expect(choice.finish_reason).toBe('tool_calls');
    expect(choice.message.tool_calls).toEqual([
      {
        id: 'toolu_fake0',
        type: 'function',
        function: { name: 'weather', arguments: '{"city":"Lima"}' },
      },
    ]);
    expect(h.fake.chatRequests[0]!.body).toMatchObject({
      tools: [{ name: 'weather', input_schema: { type: 'object' } }],
      tool_choice: { type: 'tool', name: 'weather' },
    });

    h.fake.reply('Sunny.');
    await openai.chat.completions.create({
      model: 'complex',
      messages: [
        { role: 'user', content: 'Weather in Lima?' },
        choice.message,
        { role: 'tool', tool_call_id: 'toolu_fake0', content: 'sunny' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'And this picture?' },
            { type: 'image_url', image_url: { url: 'data:image/jpeg;base64,AAAA' } },
          ],
        },
      ],
    });
    expect((h.fake.chatRequests[1]!.body as { messages: unknown }).messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Weather in Lima?' }] },
      {
        role: 'assistant',
        content: [
          { type: 'tool_use', id: 'toolu_fake0', name: 'weather', input: { city: 'Lima' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_fake0', content: 'sunny' },
          { type: 'text', text: 'And this picture?' },
          { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: 'AAAA' } },
        ],
      },
    ]);
  });
});

describe('errors in the client protocol', () => {
  it('gives Anthropic clients Anthropic error bodies', async () => {
    h.fake.reply({ status: 400, error: 'max_tokens is too large' });
    const upstream = await anthropic.messages
      .create({ model: 'simple', max_tokens: 1, messages: USER('hi') })
      .catch((error: unknown) => error);
    expect(upstream).toBeInstanceOf(Anthropic.BadRequestError);
    expect((upstream as InstanceType<typeof Anthropic.BadRequestError>).error).toEqual({
      type: 'error',
      error: {
        type: 'invalid_request_error',
        message: 'upstream fake/small answered HTTP 400 Bad Request: max_tokens is too large',
      },
    });
    const unknown = await anthropic.messages
      .create({ model: 'claude-nonexistent', max_tokens: 1, messages: USER('hi') })
      .catch((error: unknown) => error);
    expect(unknown).toBeInstanceOf(Anthropic.NotFoundError);
    expect((unknown as InstanceType<typeof Anthropic.NotFoundError>).error).toMatchObject({
      type: 'error',
      error: { type: 'not_found_error' },
    });
    const empty = await post(`${h.url}/v1/messages`, { model: 'simple', messages: [] });
    expect(empty.status).toBe(400);
    expect(JSON.parse(empty.text)).toEqual({
      type: 'error',
      error: { type: 'invalid_request_error', message: 'messages must be a non-empty array' },
    });
  });

  it('gives OpenAI clients OpenAI error bodies from an Anthropic upstream', async () => {
    h.fake.reply({ status: 400, error: 'bad image' });
    const error = await openai.chat.completions
      .create({ model: 'complex', messages: USER('hi') })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as InstanceType<typeof OpenAI.BadRequestError>).message).toContain(
      'upstream claude/big answered HTTP 400 Bad Request: bad image',
    );
  });

  it('ends a broken translated stream with an Anthropic error event', async () => {
    h.fake.reply({ text: 'a long answer that breaks', closeAfterBytes: 400 });
    const stream = anthropic.messages.stream({
      model: 'simple',
      max_tokens: 100,
      messages: USER('hi'),
    });
    const error = await stream.finalMessage().catch((e: unknown) => e);
    expect(String(error)).toContain('the answer is incomplete');
  });
});
