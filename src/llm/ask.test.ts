import Type from 'typebox';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type FakeLlmServer, startFakeLlm } from '../testing/index.js';
import { askJson, askLabel } from './ask.js';
import type { ConfiguredProvider } from './config.js';
import { LlmInvalidOutputError } from './errors.js';
import { fakeProvider, KINDS } from './fake.test-helpers.js';
import type { LlmProvider } from './types.js';

let fake: FakeLlmServer;
const providers: ConfiguredProvider[] = [];

beforeAll(async () => {
  fake = await startFakeLlm();
});
afterEach(() => {
  fake.reset().reply('ok');
});
afterAll(async () => {
  await Promise.all(providers.map((p) => p.close()));
  await fake.close();
});

function provider(kind: (typeof KINDS)[number]) {
  const p = fakeProvider(kind, fake);
  providers.push(p);
  return p;
}

const Verdict = Type.Object({
  mode: Type.Union([Type.Literal('standalone'), Type.Literal('contextual')]),
  certainty: Type.String(),
});

const TIERS = ['SIMPLE', 'MEDIUM', 'COMPLEX', 'REASONING'] as const;

describe.each(KINDS)('%s', (kind) => {
  it('askJson returns the validated, typed value, at temperature 0 by default', async () => {
    fake.script({ json: { mode: 'contextual', certainty: 'strong' } });
    const verdict = await askJson(provider(kind), {
      system: 'Decide the mode.',
      prompt: 'And what about the second one?',
      schema: Verdict,
      schemaName: 'mode',
    });
    const mode: 'standalone' | 'contextual' = verdict.mode;
    expect(mode).toBe('contextual');
    const body = fake.requests[0]?.body as Record<string, unknown>;
    const temperature =
      kind === 'ollama' ? (body.options as { temperature: number }).temperature : body.temperature;
    expect(temperature).toBe(0);
  });

  it('askJson throws LlmInvalidOutputError on a reply outside the schema', async () => {
    fake.script({ json: { mode: 'sideways', certainty: 'strong' } });
    await expect(askJson(provider(kind), { prompt: 'x', schema: Verdict })).rejects.toThrow(
      LlmInvalidOutputError,
    );
  });

  it('askLabel returns the label the answer names', async () => {
    fake.script('**Complex.**', 'I would say reasoning.');
    const p = provider(kind);
    expect(await askLabel(p, { prompt: 'Prove it', labels: TIERS })).toBe('COMPLEX');
    expect(await askLabel(p, { prompt: 'Prove it', labels: TIERS })).toBe('REASONING');
  });

  it('askLabel throws LlmInvalidOutputError on no label or an ambiguous one', async () => {
    fake.script('Hard to say.', 'Either SIMPLE or MEDIUM.');
    const p = provider(kind);
    await expect(askLabel(p, { prompt: 'x', labels: TIERS })).rejects.toThrow(
      /names none, or more than one, of: SIMPLE, MEDIUM, COMPLEX, REASONING/,
    );
    await expect(askLabel(p, { prompt: 'x', labels: TIERS })).rejects.toThrow(
      LlmInvalidOutputError,
    );
  });
});

describe('ask helpers with a provider that ignores schemas', () => {
  const plain = (text: string): LlmProvider => ({
    id: 'plain',
    model: 'm',
    complete: async () => ({ text, model: 'm', latencyMs: 1 }),
  });

  it('read JSON out of fenced, chatty replies', async () => {
    const reply = 'Here:\n```json\n{"mode": "standalone", "certainty": "weak"}\n```';
    expect(await askJson(plain(reply), { prompt: 'x', schema: Verdict })).toEqual({
      mode: 'standalone',
      certainty: 'weak',
    });
    await expect(askJson(plain('no idea'), { prompt: 'x', schema: Verdict })).rejects.toThrow(
      /reply contains no JSON object/,
    );
  });

  it('refuse calls without a question or without labels', async () => {
    await expect(askLabel(plain('x'), { prompt: 'x', labels: [] })).rejects.toThrow(RangeError);
    await expect(askJson(plain('{}'), { schema: Verdict })).rejects.toThrow(RangeError);
  });
});
