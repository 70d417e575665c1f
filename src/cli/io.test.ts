import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError, pickProviderConfig, readConfigFile, readJsonl } from './io.js';

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
