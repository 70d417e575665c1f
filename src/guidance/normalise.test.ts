import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ERROR_MESSAGE_LIMIT,
  foldParamNoise,
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

  it('folds numbers, words with digits, uuids and white space', () => {
    expect(normaliseParam('sleep 5')).toBe(normaliseParam('sleep  10'));
    expect(normaliseParam('curl localhost:8080/v2')).toBe('curl localhost:#/#');
    expect(normaliseParam('id 3f2a9c1e-0b1d-4c2e-9f00-123456789abc')).toBe('id #');
    expect(normaliseParam('ls\n\t-la')).toBe('ls -la');
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
