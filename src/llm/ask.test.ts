import Type from 'typebox';
import { describe, expect, it } from 'vitest';
import { askJson, askLabel } from './ask.js';
import { LlmInvalidOutputError } from './errors.js';
import { KINDS, useFakeLlm } from './fake.test-helpers.js';
import type { LlmProvider } from './types.js';

const llm = useFakeLlm();

const Verdict = Type.Object({
  mode: Type.Union([Type.Literal('standalone'), Type.Literal('contextual')]),
  certainty: Type.String(),
});

const TIERS = ['SIMPLE', 'MEDIUM', 'COMPLEX', 'REASONING'] as const;

describe.each(KINDS)('%s', (kind) => {
  it('askJson returns the validated, typed value, at temperature 0 by default', async () => {
    llm.fake.script({ json: { mode: 'contextual', certainty: 'strong' } });
    const verdict = await askJson(llm.provider(kind), {
      system: 'Decide the mode.',
      prompt: 'And what about the second one?',
      schema: Verdict,
      schemaName: 'mode',
    });
    const mode: 'standalone' | 'contextual' = verdict.mode;
    expect(mode).toBe('contextual');
    const body = llm.fake.requests[0]?.body as Record<string, unknown>;
    const temperature =
      kind === 'ollama' ? (body.options as { temperature: number }).temperature : body.temperature;
    expect(temperature).toBe(0);
  });

  it('askJson throws LlmInvalidOutputError on a reply outside the schema', async () => {
    llm.fake.script({ json: { mode: 'sideways', certainty: 'strong' } });
    await expect(askJson(llm.provider(kind), { prompt: 'x', schema: Verdict })).rejects.toThrow(
      LlmInvalidOutputError,
    );
  });

  it('askLabel returns the label the answer names', async () => {
    llm.fake.script('**Complex.**', 'I would say reasoning.');
    const p = llm.provider(kind);
    expect(await askLabel(p, { prompt: 'Prove it', labels: TIERS })).toBe('COMPLEX');
    expect(await askLabel(p, { prompt: 'Prove it', labels: TIERS })).toBe('REASONING');
  });

  it('askLabel throws LlmInvalidOutputError on no label or an ambiguous one', async () => {
    llm.fake.script('Hard to say.', 'Either SIMPLE or MEDIUM.');
    const p = llm.provider(kind);
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
