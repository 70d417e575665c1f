import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  InputError,
  notText,
  pickProviderConfig,
  readConfigFile,
  readInputFile,
  readJsonl,
  readTextArgument,
} from './io.js';

const file = (content: string) => {
  const path = join(mkdtempSync(join(tmpdir(), 'triage-io-')), 'rows.jsonl');
  writeFileSync(path, content);
  return path;
};
const collect = async (path: string) => {
  const rows = [];
  for await (const row of readJsonl(path)) rows.push(row);
  return rows;
};

describe('readJsonl', () => {
  it('yields each JSON line with its 1-based line number, skipping blank lines', async () => {
    const rows = await collect(file('{"a":1}\n\n  \n{"a":2}\r\n'));
    expect(rows).toEqual([
      { line: 1, value: { a: 1 } },
      { line: 4, value: { a: 2 } },
    ]);
  });

  it('names the file and line of invalid JSON', async () => {
    const path = file('{"a":1}\n{oops}\n');
    const error = await collect(path).catch((e) => e);
    expect(error).toBeInstanceOf(InputError);
    expect(error.message).toMatch(
      new RegExp(`${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:2: not valid JSON`),
    );
  });

  it('says clearly when the file cannot be read', async () => {
    await expect(collect('/nonexistent/rows.jsonl')).rejects.toThrow(
      'cannot read /nonexistent/rows.jsonl: ENOENT',
    );
  });
});

describe('readConfigFile', () => {
  it('reads JSON and YAML, and names the file of a broken one on one line', () => {
    expect(readConfigFile(file('{"a": 1}'))).toEqual({ a: 1 });
    expect(readConfigFile(file('a: [1, 2]\n'))).toEqual({ a: [1, 2] });
    const broken = file('a: [1');
    expect(() => readConfigFile(broken)).toThrow(
      expect.objectContaining({
        message: expect.stringMatching(/is not valid JSON or YAML: [^\n]+$/),
      }),
    );
    expect(() => readConfigFile('/nonexistent.yaml')).toThrow(
      'cannot read /nonexistent.yaml: ENOENT',
    );
  });
});

describe('pickProviderConfig', () => {
  it('takes the only provider, or the one named, from any of the three shapes', () => {
    expect(pickProviderConfig({ id: 'a' }, 'f', undefined)).toEqual({ id: 'a' });
    expect(pickProviderConfig([{ id: 'a' }, { id: 'b' }], 'f', 'b')).toEqual({ id: 'b' });
    expect(pickProviderConfig({ providers: [{ id: 'a' }] }, 'f', undefined)).toEqual({ id: 'a' });
    expect(() => pickProviderConfig([{ id: 'a' }, { id: 'b' }], 'f', undefined)).toThrow(
      'f lists 2 providers: choose one with --provider',
    );
    expect(() => pickProviderConfig([{ id: 'a' }], 'f', 'c')).toThrow(
      'f has no provider with id c',
    );
  });
});

describe('notText', () => {
  const bytes = (text: string) => new TextEncoder().encode(text);

  it('accepts text of any script, with tabs and line breaks', () => {
    expect(notText(bytes('hello\tworld\r\n'))).toBeUndefined();
    expect(notText(bytes('请描述一个房间设计。 ∀x √2'))).toBeUndefined();
  });

  it('refuses empty input, NUL bytes, invalid UTF-8 and mostly control characters', () => {
    expect(notText(bytes(''))).toBe('empty');
    expect(notText(bytes(' \n\t '))).toBe('empty');
    expect(notText(Uint8Array.of(0x68, 0x00, 0x69))).toMatch(/NUL bytes/);
    expect(notText(Uint8Array.of(0x68, 0xff, 0xfe, 0x69))).toMatch(/not valid UTF-8/);
    expect(notText(bytes('\u0001\u0002\u0003abc\u0004\u0005'))).toMatch(/control characters/);
    // One stray escape in a long text is still text.
    expect(notText(bytes(`\u001b[1m${'bold words '.repeat(10)}`))).toBeUndefined();
  });

  it('holds for every string: valid UTF-8 without NUL is refused only when empty or control-heavy', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', minLength: 1 }), (text) => {
        fc.pre(text.trim() !== '' && !text.includes('\u0000'));
        const problem = notText(new TextEncoder().encode(text));
        expect(problem === undefined || problem.includes('control characters')).toBe(true);
      }),
    );
  });
});

describe('readInputFile', () => {
  it('names the file of empty or binary content', async () => {
    await expect(readInputFile(file(''))).rejects.toThrow(/rows\.jsonl is empty$/);
    const binary = join(mkdtempSync(join(tmpdir(), 'triage-io-')), 'blob.bin');
    writeFileSync(binary, Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x00, 0x00]));
    await expect(readInputFile(binary)).rejects.toThrow(
      `${binary} is binary (it holds NUL bytes), not text`,
    );
  });

  it('rejects an empty text argument', async () => {
    await expect(readTextArgument('')).rejects.toThrow('the text argument is empty');
    await expect(readTextArgument('  ')).rejects.toThrow('the text argument is empty');
    expect(await readTextArgument('hello')).toBe('hello');
  });
});
