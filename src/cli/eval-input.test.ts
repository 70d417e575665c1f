import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { choose, readEvalRecords, recordFormat } from './eval-input.js';

const file = (name: string, content: string) => {
  const path = join(mkdtempSync(join(tmpdir(), 'triage-eval-input-')), name);
  writeFileSync(path, content);
  return path;
};
const values = async (path: string, flags = {}) =>
  (await readEvalRecords(path, flags)).map((record) => record.value);

describe('readEvalRecords', () => {
  it('reads JSONL, a JSON array and CSV with a header alike', async () => {
    const rows = [
      { input: 'hi', expected: 'SIMPLE' },
      { input: 'a, "quoted"\nline', expected: 'MEDIUM' },
    ];
    expect(await values(file('a.jsonl', rows.map((r) => JSON.stringify(r)).join('\n')))).toEqual(
      rows,
    );
    expect(await values(file('a.json', JSON.stringify(rows)))).toEqual(rows);
    const csv = 'input,expected\nhi,SIMPLE\n"a, ""quoted""\nline",MEDIUM\n';
    expect(await values(file('a.csv', csv))).toEqual(rows);
  });

  it('says where a row is: the line of JSONL and CSV, the index of a JSON array', async () => {
    const csv = await readEvalRecords(file('b.csv', 'input,expected\n"two\nlines",X\nnext,Y\n'));
    expect(csv.map((r) => r.where.replace(/.*\//, ''))).toEqual(['b.csv:3', 'b.csv:4']);
    const json = await readEvalRecords(file('b.json', '[{"input":"a"},{"input":"b"}]'));
    expect(json.map((r) => r.where.replace(/.*\//, ''))).toEqual(['b.json[0]', 'b.json[1]']);
  });

  it('maps fields, and gives every row one label with --label', async () => {
    const path = file('c.json', JSON.stringify([{ prompt: 'p', label: 1, source: 'web' }]));
    expect(await values(path, { textField: 'prompt', labelField: 'label' })).toEqual([
      { prompt: 'p', label: 1, source: 'web', input: 'p', expected: 1 },
    ]);
    expect(await values(path, { textField: 'prompt', label: 'false' })).toMatchObject([
      { input: 'p', expected: false },
    ]);
    expect(await values(path, { textField: 'prompt', label: 'SIMPLE' })).toMatchObject([
      { expected: 'SIMPLE' },
    ]);
  });

  it('refuses an empty file, a file without rows, a JSON object and bad CSV, naming the file', async () => {
    await expect(values(file('e.jsonl', ''))).rejects.toThrow(/e\.jsonl is empty$/);
    await expect(values(file('e.json', '[]'))).rejects.toThrow(/e\.json has no rows$/);
    await expect(values(file('o.json', '{"a": 1}'))).rejects.toThrow(
      /o\.json: a JSON file must hold an array of rows$/,
    );
    await expect(values(file('bad.csv', 'input,expected\n"open,X\n'))).rejects.toThrow(
      /bad\.csv: not valid CSV/,
    );
    await expect(values(file('rows.txt', 'input,expected\n'))).rejects.toThrow(
      /cannot tell the layout of .*rows\.txt: name it with --format jsonl\|json\|csv/,
    );
  });

  it('takes the layout from --format first, then the extension, then the first character', () => {
    expect(recordFormat('x.json', '{', 'csv')).toBe('csv');
    expect(recordFormat('x.NDJSON', '[')).toBe('jsonl');
    expect(recordFormat('-', '  [{"a":1}]')).toBe('json');
    expect(recordFormat('-', '{"a":1}\n')).toBe('jsonl');
  });
});

describe('choose', () => {
  const rows = Array.from({ length: 100 }, (_, i) => i);

  it('keeps the first --limit rows', () => {
    expect(choose(rows, { limit: 3 })).toEqual([0, 1, 2]);
  });

  it('draws --sample rows without repeats, in file order, the same for the same seed', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 120 }), fc.integer(), (sample, seed) => {
        let state = seed >>> 0;
        const random = () => {
          state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
          return state / 2 ** 32;
        };
        const picked = choose(rows, { sample }, random);
        expect(picked).toHaveLength(Math.min(sample, rows.length));
        expect(new Set(picked).size).toBe(picked.length);
        expect([...picked].sort((a, b) => a - b)).toEqual(picked);
      }),
    );
  });

  it('samples the same rows of a file for the same --seed, and others for another', async () => {
    const path = file(
      'many.jsonl',
      rows.map((i) => JSON.stringify({ input: `row ${i}`, expected: 'X' })).join('\n'),
    );
    const a = await values(path, { sample: 10, seed: 7 });
    expect(await values(path, { sample: 10, seed: 7 })).toEqual(a);
    expect(await values(path, { sample: 10, seed: 8 })).not.toEqual(a);
  });
});
