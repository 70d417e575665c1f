import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { documentContextRouterConfig } from './document-config.js';
import { LocalContextRouter } from './local-router.js';
import { DEFAULT_MODES } from './modes.js';

/**
 * The project's own labelled questions, in the `triage eval context` format: questions a student
 * might ask a document-camera assistant, written from the mode definitions, some in nine other
 * languages. `context.jsonl` (263) is the development set the default weights were fitted on;
 * `context-holdout.jsonl` (100) was written at the same time and never tuned on. The floors sit
 * a little below the measured figures (in the comments), so that a change that makes the router
 * worse fails here.
 */
function load(name: string) {
  return readFileSync(new URL(`../../test/fixtures/${name}`, import.meta.url), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as { input: string; expected: string });
}
const development = load('context.jsonl');
const heldOut = load('context-holdout.jsonl');

function measure(router: LocalContextRouter, rows: readonly { input: string; expected: string }[]) {
  let correct = 0;
  let local = 0;
  let localCorrect = 0;
  for (const row of rows) {
    const route = router.route(row.input);
    if (route.mode === row.expected) correct++;
    if (route.confident) {
      local++;
      if (route.mode === row.expected) localCorrect++;
    }
  }
  return {
    accuracy: correct / rows.length,
    localShare: local / rows.length,
    localAccuracy: localCorrect / local,
  };
}

describe('the labelled sets', () => {
  it('have questions of every mode, in the eval format, none twice', () => {
    expect(development.length).toBeGreaterThanOrEqual(250);
    expect(heldOut.length).toBeGreaterThanOrEqual(100);
    for (const rows of [development, heldOut]) {
      for (const mode of Object.keys(DEFAULT_MODES)) {
        expect(rows.filter((row) => row.expected === mode).length).toBeGreaterThanOrEqual(30);
      }
    }
    const all = [...development, ...heldOut].map((row) => row.input);
    expect(new Set(all).size).toBe(all.length);
  });

  it('default router: most questions decided locally, and those decisions right', () => {
    const figures = measure(new LocalContextRouter(), development);
    expect(figures.localShare).toBeGreaterThanOrEqual(0.88); // measured 0.913 (240/263)
    expect(figures.localAccuracy).toBeGreaterThanOrEqual(0.99); // 1.000 (240/240)
    expect(figures.accuracy).toBeGreaterThanOrEqual(0.9); // 0.939, LLM not asked
  });

  it('default router on the held-out questions: at least 80 % local, at least 97 % right', () => {
    const figures = measure(new LocalContextRouter(), heldOut);
    expect(figures.localShare).toBeGreaterThanOrEqual(0.85); // measured 0.90 (90/100)
    expect(figures.localAccuracy).toBeGreaterThanOrEqual(0.97); // 0.978 (88/90)
    expect(figures.accuracy).toBeGreaterThanOrEqual(0.85); // 0.90
  });

  it('the document’s router alone decides far less, and less accurately', () => {
    const document = new LocalContextRouter(documentContextRouterConfig());
    const defaults = new LocalContextRouter();
    for (const rows of [development, heldOut]) {
      const before = measure(document, rows);
      const after = measure(defaults, rows);
      expect(before.localShare).toBeLessThan(0.5); // 0.43 and 0.42
      expect(after.localShare).toBeGreaterThan(before.localShare + 0.3);
      expect(after.localAccuracy).toBeGreaterThan(before.localAccuracy);
    }
  });
});
