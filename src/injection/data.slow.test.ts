import { readFileSync } from 'node:fs';
import vard from '@andersmyrmel/vard';
import { beforeEach, describe, expect, it } from 'vitest';
import { missingData, sharedData } from '../../test/data.js';
import { BinaryTally } from '../eval/metrics.js';
import { InjectionDetector } from './detector.js';
import type { InjectionSource } from './types.js';

/**
 * The detector on the public development sets (`injection/` of the data folder, see test/data.ts):
 * NotInject (benign prompts full of trigger words), InjecGuard's validation set (mixed) and
 * Giskard's attacks. The floors asserted here are the figures reached, rounded down: a change
 * that loses accuracy fails. Further public sets are held back for evaluation, so these files
 * are for checking, not for tuning row by row.
 */

interface Row {
  readonly text: string;
  readonly injection: boolean;
  readonly origin: string;
}

const files = {
  notInjectOne: sharedData('injection/NotInject_one.json'),
  notInjectTwo: sharedData('injection/NotInject_two.json'),
  injecguard: sharedData('injection/injecguard_valid.json'),
  giskard: sharedData('injection/giskard_prompt_injections.csv'),
};
const missing = Object.values(files).some((path) => path === undefined);

function load(): Row[] {
  const rows: Row[] = [];
  for (const path of [files.notInjectOne!, files.notInjectTwo!]) {
    for (const row of JSON.parse(readFileSync(path, 'utf8')) as { prompt: string }[]) {
      rows.push({ text: row.prompt, injection: false, origin: 'NotInject' });
    }
  }
  const valid = JSON.parse(readFileSync(files.injecguard!, 'utf8')) as {
    prompt: string;
    label: number;
    source: string;
  }[];
  for (const row of valid) {
    rows.push({ text: row.prompt, injection: row.label === 1, origin: row.source });
  }
  const [header, ...records] = parseCsv(readFileSync(files.giskard!, 'utf8'));
  const column = header!.indexOf('prompt');
  for (const record of records) {
    if (record.length > column)
      rows.push({ text: record[column]!, injection: true, origin: 'giskard' });
  }
  return rows;
}

/** A minimal RFC 4180 reader (quoted fields with doubled quotes and newlines). */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      record.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      record.push(field);
      records.push(record);
      record = [];
      field = '';
    } else field += c;
  }
  if (field !== '' || record.length > 0) {
    record.push(field);
    records.push(record);
  }
  return records;
}

function evaluate(rows: readonly Row[], source: (row: Row) => InjectionSource) {
  const detector = new InjectionDetector();
  return tally(
    rows,
    (row) => detector.detect(row.text, { source: source(row) }).riskLevel !== 'normal',
  );
}

function tally(rows: readonly Row[], flags: (row: Row) => boolean) {
  const counts = new BinaryTally();
  rows.forEach((row, index) => {
    counts.add(index + 1, row.text, row.injection, flags(row));
  });
  return counts.report();
}

describe('injection detector on the public development sets', () => {
  const rows = missing ? [] : load();
  beforeEach((context) => {
    context.skip(missing, missingData('injection/'));
  });

  it('loads every row (226 NotInject, 144 InjecGuard, 35 Giskard)', () => {
    expect(rows).toHaveLength(405);
  });

  it('reaches F1 ≥ 0.80 with a false-positive rate under 1% (every text as a user message)', () => {
    const report = evaluate(rows, () => 'user');
    expect(report.f1).toBeGreaterThanOrEqual(0.8);
    expect(report.fpr).toBeLessThanOrEqual(0.01);
    expect(report.precision).toBeGreaterThanOrEqual(0.95);
  });

  it('beats @andersmyrmel/vard (strict preset) measured on the same rows in the same way', () => {
    // vard's default 10,000-character limit is raised so that it judges long prompts too.
    const peer = vard.strict().maxLength(1_000_000);
    const theirs = tally(rows, (row) => !peer.safeParse(row.text).safe);
    const ours = evaluate(rows, () => 'user');
    expect(theirs.f1).toBeLessThan(0.55);
    expect(ours.f1).toBeGreaterThan(theirs.f1 + 0.25);
    expect(ours.fpr).toBeLessThan(theirs.fpr);
  });

  it('keeps every NotInject prompt (benign text full of trigger words) normal', () => {
    const benign = rows.filter((row) => row.origin.startsWith('NotInject'));
    const report = evaluate(benign, () => 'user');
    expect(report.falsePositives).toBe(0);
  });

  it('flags every Giskard attack', () => {
    const report = evaluate(
      rows.filter((row) => row.origin === 'giskard'),
      () => 'user',
    );
    expect(report.recall).toBe(1);
  });

  it('finds instructions hidden in data when told the text is a document', () => {
    // BIPIA's attacks are instructions planted in emails and code; PINT's documents are benign.
    const asData = (row: Row): InjectionSource =>
      row.origin.startsWith('BIPIA') || row.origin.startsWith('PINT_doc') ? 'document' : 'user';
    const data = rows.filter(
      (row) => row.origin.startsWith('BIPIA') || row.origin.startsWith('PINT_doc'),
    );
    const asUser = evaluate(data, () => 'user');
    const asDocument = evaluate(data, asData);
    expect(asDocument.recall).toBeGreaterThanOrEqual(0.5);
    expect(asDocument.recall).toBeGreaterThan(asUser.recall + 0.35);
    expect(asDocument.falsePositives).toBe(0);
  });
});
