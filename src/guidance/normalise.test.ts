import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ERROR_MESSAGE_LIMIT,
  foldParamNoise,
  isNoiseKey,
  normaliseErrorMessage,
  normaliseParam,
} from './normalise.js';

describe('normaliseErrorMessage', () => {
  it('folds paths, numbers, ids and URLs, so retries of one error compare equal', () => {
    const a = normaliseErrorMessage("ENOENT: no such file '/tmp/build-123/out.log' (errno -2)");
    const b = normaliseErrorMessage("ENOENT: no such file '/home/me/x/y.log' (errno -2)");
    expect(a).toBe(b);
    expect(a).toBe("ENOENT: no such file '<path>' (errno -<n>)");
    expect(normaliseErrorMessage('request 3f2a9c1e-0b1d-4c2e-9f00-123456789abc failed')).toBe(
      'request <id> failed',
    );
    expect(normaliseErrorMessage('commit a1b2c3d4e5f6 not found')).toBe('commit <id> not found');
    expect(normaliseErrorMessage('GET https://api.example.com/v1/x?id=4 returned 503')).toBe(
      'GET <url> returned <n>',
    );
    expect(normaliseErrorMessage('C:\\Users\\me\\a.txt missing')).toBe('<path> missing');
  });

  it('keeps what distinguishes one error from another', () => {
    expect(normaliseErrorMessage('TypeError: x is undefined')).not.toBe(
      normaliseErrorMessage('SyntaxError: unexpected token'),
    );
    expect(normaliseErrorMessage('  timed   out\n after 30s ')).toBe('timed out after <n>s');
  });

  it('reads no further than its limit, whatever the message length', () => {
    const tail = 'x'.repeat(10);
    const long = `${'a '.repeat(ERROR_MESSAGE_LIMIT)}${tail}`;
    expect(normaliseErrorMessage(long)).not.toContain(tail);
    expect(normaliseErrorMessage(long).length).toBeLessThanOrEqual(ERROR_MESSAGE_LIMIT);
  });
});

describe('normaliseParam', () => {
  it('normalises path spelling but keeps the path', () => {
    expect(normaliseParam('./src//lib/a.ts')).toBe('src/lib/a.ts');
    expect(normaliseParam('src\\lib\\a.ts')).toBe('src/lib/a.ts');
    expect(normaliseParam('cat src/lib/ ')).toBe('cat src/lib');
    expect(normaliseParam('src/a.ts')).not.toBe(normaliseParam('src/b.ts'));
  });

  it('keeps what the action is about: files, offsets, lines, tests, ports, dates, short hashes', () => {
    for (const [a, b] of [
      ['read src/file1.ts', 'read src/file2.ts'],
      ['sed -n 1,100p a.ts', 'sed -n 100,200p a.ts'],
      ['pytest -k test_1', 'pytest -k test_22'],
      ['pytest --shard 3', 'pytest --shard 0'],
      ['curl localhost:8080/v2', 'curl localhost:8081/v2'],
      ['report --day 2024-05-01', 'report --day 2024-05-02'],
      ['git show a1b2c3d', 'git show 9f8e7d6'],
      ['cat project/tmp/file1.ts', 'cat project/tmp/file2.ts'],
      ['head -n 5', 'head -n 10'],
    ]) {
      expect(normaliseParam(a!), `${a} vs ${b}`).not.toBe(normaliseParam(b!));
      expect(normaliseParam(a!)).toBe(a);
    }
  });

  it('folds timestamps, generated ids, temp directories and durations', () => {
    for (const [a, b] of [
      ['log --since "2024-05-01T10:00:03Z"', 'log --since "2024-05-01T10:07:59.120Z"'],
      ['journalctl --since "2024-05-01 10:00:03"', 'journalctl --since "2024-05-02 11:30:00"'],
      [
        'curl "https://api.example.com/x?t=1714557603"',
        'curl "https://api.example.com/x?t=1714557999"',
      ],
      ['backup-20240501T100003Z.tar', 'backup-20240501T100517Z.tar'],
      ['at 10:00:03 run', 'at 10:00:09 run'],
      [
        'curl -H "X-Request-Id: 3f2a9c1e-0b1d-4c2e-9f00-123456789abc" api',
        'curl -H "X-Request-Id: 0c6b1f9e-7d2a-4e11-8b3f-aa00bb11cc22" api',
      ],
      ['trace 4bf92f3577b34da6a3ce929d0e0e4736', 'trace 00f067aa0ba902b7a3ce929d0e0e4736'],
      ['job 01HZX3K8Q9V7B2N4M6P8R0T2W4', 'job 01HZX3KCDE7B2N4M6P8R0T2W4Z'],
      ['ls /tmp/build-1234/out.log', 'ls /tmp/build-99/out.log'],
      ['cat /tmp/tmp.Xa9bQ2/a.txt', 'cat /tmp/tmp.Pq3rS7/a.txt'],
      ['cat /tmp/tmpkxqzvab/a.txt', 'cat /tmp/tmpwplmnoq/a.txt'],
      [
        'type C:\\Users\\me\\AppData\\Local\\Temp\\x7f\\a.txt',
        'type C:\\Users\\me\\AppData\\Local\\Temp\\q2\\a.txt',
      ],
      ['sleep 5 && make', 'sleep  10 && make'],
      ['curl --timeout 30 --retry-delay=2 x', 'curl --timeout 60 --retry-delay=5 x'],
      ['wait for 250ms', 'wait for 2s'],
    ]) {
      expect(normaliseParam(a!), `${a} vs ${b}`).toBe(normaliseParam(b!));
      expect(normaliseParam(a!)).not.toBe(a);
    }
    expect(normaliseParam('ls /tmp/build-1234/out.log')).toBe('ls /tmp/#/out.log');
    expect(normaliseParam('ls /tmp/build-1/out.log')).not.toBe(normaliseParam('ls /tmp/b/in.log'));
    expect(normaliseParam('id 3f2a9c1e-0b1d-4c2e-9f00-123456789abc')).toBe('id #');
    expect(normaliseParam('ls\n\t-la')).toBe('ls -la');
  });
});

describe('isNoiseKey', () => {
  it('names generated ids, timestamps, retry counters and waits, not what is acted on', () => {
    for (const key of ['requestId', 'x-request-id', 'trace_id', 'Idempotency-Key', 'nonce']) {
      expect(isNoiseKey(key), key).toBe(true);
    }
    for (const key of ['timestamp', 'ts', 'attempt', 'timeout', 'timeout_ms', 'retryAfter']) {
      expect(isNoiseKey(key), key).toBe(true);
    }
    for (const key of ['id', 'path', 'offset', 'line', 'limit', 'query', 'file_id', 'time_zone']) {
      expect(isNoiseKey(key), key).toBe(false);
    }
  });
});

describe('normaliseParam fast path', () => {
  it('skips only strings the replacements would leave unchanged (property)', () => {
    const piece = fc.constantFrom(
      ...'ab /.\\-_:=\'"(,\t\n1fAF'.split(''),
      'dead',
      'beef',
      '0000',
      '  ',
      'tmp',
      'Temp',
      '/tmp/',
      'T/',
      's',
      'ms',
      'sleep ',
      '--timeout ',
      '2024-05-01T10:00:03Z',
      '1714557603',
      'C:',
    );
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 30 }).map((parts) => parts.join('')),
        (value) => {
          expect(normaliseParam(value)).toBe(foldParamNoise(value));
        },
      ),
      { numRuns: 3000 },
    );
    expect(normaliseParam('deadbeef-dead-beef-dead-beefdeadbeef')).toBe('#');
  });
});
