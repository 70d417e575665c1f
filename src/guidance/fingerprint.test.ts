import { describe, expect, it } from 'vitest';
import { contentKey, exactCallKey, MAX_DEPTH, nearCallKey, STRING_WINDOW } from './fingerprint.js';

describe('call keys', () => {
  it('ignore key order', () => {
    expect(exactCallKey('t', { a: 1, b: 'x' })).toBe(exactCallKey('t', { b: 'x', a: 1 }));
    expect(nearCallKey('t', { a: 1, b: 'x' })).toBe(nearCallKey('t', { b: 'x', a: 1 }));
  });

  it('near keys keep what is acted on: another offset, file or test is another call', () => {
    expect(nearCallKey('read', { offset: 0 })).not.toBe(nearCallKey('read', { offset: 100 }));
    expect(nearCallKey('read', { path: 'src/file1.ts' })).not.toBe(
      nearCallKey('read', { path: 'src/file2.ts' }),
    );
    expect(nearCallKey('bash', { cmd: 'pytest -k test_1' })).not.toBe(
      nearCallKey('bash', { cmd: 'pytest -k test_22' }),
    );
    expect(nearCallKey('get', { id: 7 })).not.toBe(nearCallKey('get', { id: 8 }));
  });

  it('near keys fold noise: noise keys, epoch timestamps, ids and waits in strings', () => {
    const near = (params: Record<string, unknown>) => nearCallKey('http', params);
    const exact = (params: Record<string, unknown>) => exactCallKey('http', params);
    for (const [a, b] of [
      [
        { url: '/x', requestId: 'a1' },
        { url: '/x', requestId: 'b2' },
      ],
      [
        { url: '/x', headers: { 'X-Request-Id': 'a' } },
        { url: '/x', headers: { 'X-Request-Id': 'b' } },
      ],
      [
        { url: '/x', timeout: 30 },
        { url: '/x', timeout: 60 },
      ],
      [
        { url: '/x', attempt: 1 },
        { url: '/x', attempt: 2 },
      ],
      [
        { url: '/x', at: 1_714_557_603_000 },
        { url: '/x', at: 1_714_557_999_000 },
      ],
      [{ cmd: 'sleep 5 && make' }, { cmd: 'sleep  10 && make' }],
    ] as const) {
      expect(near(a), JSON.stringify(a)).toBe(near(b));
      expect(exact(a), JSON.stringify(a)).not.toBe(exact(b));
    }
    expect(near({ url: '/x', requestId: 'a' })).not.toBe(near({ url: '/y', requestId: 'a' }));
    expect(near({ url: '/x', at: 5 })).not.toBe(near({ url: '/x', at: 6 }));
  });

  it('tell tools, keys, values, types and structure apart', () => {
    const keys = [
      exactCallKey('a', { x: 'y' }),
      exactCallKey('b', { x: 'y' }),
      exactCallKey('a', { z: 'y' }),
      exactCallKey('a', { x: 'z' }),
      exactCallKey('a', { x: ['y'] }),
      exactCallKey('a', { x: { y: null } }),
      exactCallKey('a', { x: true }),
      exactCallKey('a', { x: 'true' }),
      exactCallKey('a', { xy: '' }),
      exactCallKey('a', {}),
      exactCallKey('ax', {}),
    ];
    expect(new Set(keys).size).toBe(keys.length);
    expect(nearCallKey('a', { p: 'src/a.ts' })).not.toBe(nearCallKey('a', { p: 'src/b.ts' }));
  });

  it('are integers below 2^53', () => {
    for (const key of [
      exactCallKey('a', {}),
      nearCallKey('zz', { q: [1, 2] }),
      contentKey('x', 1),
    ]) {
      expect(Number.isSafeInteger(key)).toBe(true);
      expect(key).toBeGreaterThanOrEqual(0);
    }
  });

  it('stay bounded on huge and deep params, and still tell their ends apart', () => {
    const huge = 'a'.repeat(5_000_000);
    expect(exactCallKey('w', { content: `${huge}x` })).not.toBe(
      exactCallKey('w', { content: `${huge}y` }),
    );
    expect(exactCallKey('w', { content: `x${huge}` })).not.toBe(
      exactCallKey('w', { content: `y${huge}` }),
    );
    // The middle of a long string does not count (documented trade-off).
    const middle = (c: string) => `${'a'.repeat(STRING_WINDOW)}${c}${'b'.repeat(STRING_WINDOW)}`;
    expect(exactCallKey('w', { s: middle('x') })).toBe(exactCallKey('w', { s: middle('y') }));
    let deep: Record<string, unknown> = { leaf: 1 };
    for (let i = 0; i < 10_000; i++) deep = { next: deep };
    expect(() => exactCallKey('d', deep)).not.toThrow();
    const shallow = (leaf: unknown) => {
      let value: Record<string, unknown> = { leaf };
      for (let i = 0; i < MAX_DEPTH + 2; i++) value = { next: value };
      return value;
    };
    expect(exactCallKey('d', shallow(1))).toBe(exactCallKey('d', shallow(2)));
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => nearCallKey('c', cyclic)).not.toThrow();
  });
});

describe('contentKey', () => {
  it('covers the message and the value', () => {
    expect(contentKey('ok', undefined)).toBe(contentKey('ok', undefined));
    expect(contentKey('ok', { n: 1 })).not.toBe(contentKey('ok', { n: 2 }));
    expect(contentKey('3 passed', undefined)).not.toBe(contentKey('4 passed', undefined));
  });
});
