import { describe, expect, it } from 'vitest';
import { contextOf, ok } from '../guidance.test-helpers.js';
import type { TrajectoryEvent } from '../types.js';
import { LargeOutputClassifier } from './large-output.js';
import { SensitiveContentClassifier } from './sensitive-content.js';

describe('LargeOutputClassifier', () => {
  const classifier = new LargeOutputClassifier({ sizeThreshold: 10 });

  it('fires when the last result message has more characters than the threshold', () => {
    expect(classifier.classify(contextOf([ok('cat', {}, 'x'.repeat(10))])).relevant).toBe(false);
    expect(classifier.classify(contextOf([ok('cat', {}, 'x'.repeat(11))]))).toMatchObject({
      relevant: true,
      confidence: 0.7,
      metadata: { tool: 'cat', length: 11 },
    });
  });

  it('counts characters, not UTF-16 units: ten emoji are ten characters', () => {
    expect(classifier.classify(contextOf([ok('cat', {}, '😀'.repeat(10))])).relevant).toBe(false);
    expect(classifier.classify(contextOf([ok('cat', {}, '😀'.repeat(11))])).relevant).toBe(true);
    expect(classifier.classify(contextOf([ok('cat', {}, '\ud800'.repeat(11))])).relevant).toBe(
      true,
    );
  });

  it('looks only at the last result, and not at pending calls or the value', () => {
    const big = ok('cat', {}, 'x'.repeat(100));
    expect(classifier.classify(contextOf([big, ok('ls', {}, 'a')])).relevant).toBe(false);
    expect(classifier.classify(contextOf([])).relevant).toBe(false);
    const pending: TrajectoryEvent = {
      type: 'tool_call',
      callId: 'p',
      tool: 'cat',
      params: { x: 'y'.repeat(99) },
    };
    expect(classifier.classify(contextOf([ok('ls', {}, 'a'), pending])).relevant).toBe(false);
    const withValue: TrajectoryEvent = {
      type: 'tool_invoked',
      tool: 'q',
      result: { success: true, message: 'ok', value: 'z'.repeat(100) },
    };
    expect(classifier.classify(contextOf([withValue])).relevant).toBe(false);
  });

  it('gives the same answer for the same record, however often asked', () => {
    const context = contextOf([ok('cat', {}, 'x'.repeat(50))]);
    expect(classifier.classify(context)).toEqual(classifier.classify(context));
  });
});

describe('SensitiveContentClassifier', () => {
  const classifier = new SensitiveContentClassifier();
  const pending = (params: Record<string, unknown>, tool = 'http_post') =>
    contextOf([{ type: 'tool_call', callId: 'c1', tool, params }]);
  const fires = (params: Record<string, unknown>) => classifier.classify(pending(params)).relevant;

  it('does not fire on max_tokens and other words that merely contain a term', () => {
    expect(fires({ max_tokens: 512, maxTokens: 5, prompt: 'count the tokens' })).toBe(false);
    expect(fires({ q: 'call the secretary about the tokenizer', passwordless: false })).toBe(false);
    for (const params of [
      { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15, maxtokens: 9 },
      { usage: { input_tokens: 1, output_tokens: 2 }, tokens: ['a', 'b'], num_tokens: 2 },
      { q: 'the passwordless login page; tokenization; secretariat; credentialing' },
    ]) {
      expect(fires(params), JSON.stringify(params)).toBe(false);
    }
  });

  it('fires on the plurals and compounds the original patterns caught', () => {
    for (const params of [
      { access_tokens: ['x'] },
      { auth_tokens: 'x' },
      { refreshTokens: 'x' },
      { apikeys: 'x' },
      { APIKEYS: 'x' },
      { accesstoken: 'x' },
      { githubtoken: 'x' },
      { dbpassword: 'x' },
      { admin_passwords: ['x'] },
      { clientsecret: 'x' },
      { client_secrets: 'x' },
      { awscredentials: 'x' },
      { private_keys: 'x' },
      { secretkey: 'x' },
      { cmd: 'export OPENAI_APIKEY=x' },
    ]) {
      expect(fires(params), JSON.stringify(params)).toBe(true);
    }
  });

  it('fires on key names and values on word boundaries, whatever the identifier style', () => {
    for (const params of [
      { password: 'hunter2' },
      { api_key: 'x' },
      { apiKey: 'x' },
      { headers: { 'X-API-KEY': 'x' } },
      { env: ['AWS_SECRET_ACCESS_KEY=abc'] },
      { auth_token: 'x' },
      { cmd: 'cat ~/.aws/credentials' },
      { body: 'my Password is hunter2' },
      { APIKey: 'x' },
      { headers: { Authorization: 'Bearer x' } },
      { nested: { deeper: [{ privateKey: 'x' }] } },
    ]) {
      expect(fires(params), JSON.stringify(params)).toBe(true);
    }
  });

  it('names the term and the call, never the value', () => {
    const result = classifier.classify(pending({ password: 'hunter2' }, 'login'));
    expect(result).toMatchObject({
      relevant: true,
      confidence: 0.9,
      reason: "sensitive term 'password' in the params of pending call login",
      metadata: { term: 'password', tool: 'login', callId: 'c1' },
    });
    expect(JSON.stringify(result)).not.toContain('hunter2');
  });

  it('reads only pending calls: completed ones have run already', () => {
    expect(classifier.classify(contextOf([ok('login', { password: 'x' })])).relevant).toBe(false);
    const done: TrajectoryEvent[] = [
      { type: 'tool_call', callId: 'c1', tool: 'login', params: { password: 'x' } },
      { type: 'tool_result', callId: 'c1', result: { success: true } },
    ];
    expect(classifier.classify(contextOf(done)).relevant).toBe(false);
  });

  it('uses configured terms, with stems, and scans only maxScanChars', () => {
    const custom = new SensitiveContentClassifier({ terms: ['ssn', 'social security'] });
    expect(custom.classify(pending({ form: 'Social  Security number' })).relevant).toBe(true);
    expect(custom.classify(pending({ password: 'x' })).relevant).toBe(false);
    const stems = new SensitiveContentClassifier({ terms: ['secret*'] });
    expect(stems.classify(pending({ secretary: 'x' })).relevant).toBe(true);
    const short = new SensitiveContentClassifier({ maxScanChars: 20 });
    expect(short.classify(pending({ text: `${'a '.repeat(20)} password` })).relevant).toBe(false);
    expect(() => new SensitiveContentClassifier({ terms: [] })).toThrow(
      /terms must NOT have fewer than 1/,
    );
  });

  it('survives params of any shape', () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    expect(fires(cyclic)).toBe(false);
    expect(fires({ big: 'x'.repeat(2_000_000), n: null, u: undefined, b: true })).toBe(false);
  });
});
