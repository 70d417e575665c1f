import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseCapsDirective, resolveBypass } from './directive.js';

describe('parseCapsDirective', () => {
  it.each([
    ['/caps:off what is the weather', 'what is the weather', 'off'],
    ['what is the weather /caps:off', 'what is the weather', 'off'],
    ['/CAPS:ON hello', 'hello', 'on'],
    ['/caps:off then /caps:on', 'then', 'on'],
    ['line one\n/caps:off\nline two', 'line one\n\nline two', 'off'],
    ['/caps:off', '', 'off'],
  ])('finds the directive in %j', (text, stripped, directive) => {
    expect(parseCapsDirective(text)).toEqual({ text: stripped, directive });
  });

  it.each([
    'path/caps:off is not a directive',
    'what about /caps:offline',
    '/caps:maybe',
    'no directive at all',
    'a URL http://x/caps:on',
  ])('leaves %j alone', (text) => {
    expect(parseCapsDirective(text)).toEqual({ text });
  });

  it('never leaves a directive behind and never changes text without one', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('/caps:on', '/caps:off', 'hello', 'weather?', '/caps', '\n'), {
          maxLength: 8,
        }),
        (words) => {
          const text = words.join(' ');
          const parsed = parseCapsDirective(text);
          expect(parsed.text.split(/\s+/)).not.toContain('/caps:on');
          expect(parsed.text.split(/\s+/)).not.toContain('/caps:off');
          const last = words.filter((w) => w === '/caps:on' || w === '/caps:off').at(-1);
          if (last === undefined) expect(parsed).toEqual({ text });
          else expect(parsed.directive).toBe(last === '/caps:on' ? 'on' : 'off');
        },
      ),
    );
  });
});

describe('resolveBypass', () => {
  it('prefers the directive, then the session, then the configuration', () => {
    expect(resolveBypass('off', false, false)).toEqual({ bypass: true, from: 'directive' });
    expect(resolveBypass('on', true, true)).toEqual({ bypass: false, from: 'directive' });
    expect(resolveBypass(undefined, true, false)).toEqual({ bypass: true, from: 'session' });
    expect(resolveBypass(undefined, undefined, true)).toEqual({ bypass: true, from: 'config' });
    expect(resolveBypass(undefined, undefined, undefined)).toEqual({
      bypass: false,
      from: 'default',
    });
  });
});
