import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseTierRow } from '../cli/commands/tier.js';
import { KEYWORD_LANGUAGES } from './keywords/index.js';
import { createTierRouter } from './router.js';
import { TIERS } from './tiers.js';

/**
 * One labelled set per supported language (`test/fixtures/tier-languages/<code>.jsonl`): the same
 * 28 requests in each language, seven per tier (greetings and facts, short writing tasks, system
 * design, proofs and puzzles), written for this project. Routing must not depend on the language a
 * user writes in: every language reaches the floor English reaches.
 */
const FLOOR = 0.9;
const router = createTierRouter();

function accuracy(language: string): { accuracy: number; rows: number; tiers: Set<string> } {
  const file = fileURLToPath(
    new URL(`../../test/fixtures/tier-languages/${language}.jsonl`, import.meta.url),
  );
  const rows = readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => parseTierRow(JSON.parse(line)));
  let correct = 0;
  const tiers = new Set<string>();
  for (const row of rows) {
    const expected = Array.isArray(row.expected) ? row.expected : [row.expected];
    for (const tier of expected) tiers.add(tier);
    if (expected.includes(router.classify(row.input).tier)) correct++;
  }
  return { accuracy: correct / rows.length, rows: rows.length, tiers };
}

describe('tier routing in every supported language', () => {
  const english = accuracy('en');

  it(`English reaches the floor (${FLOOR})`, () => {
    expect(english.accuracy).toBeGreaterThanOrEqual(FLOOR);
  });

  for (const language of KEYWORD_LANGUAGES.filter((l) => l !== 'en')) {
    it(`${language} reaches the same floor, on a set covering all four tiers`, () => {
      const result = accuracy(language);
      expect(result.rows).toBeGreaterThanOrEqual(15);
      expect([...result.tiers].sort()).toEqual([...TIERS].sort());
      expect(result.accuracy).toBeGreaterThanOrEqual(FLOOR);
    });
  }

  it('proves and asks the capital in every language as in English', () => {
    const cases: Record<string, [reasoning: string, simple: string]> = {
      en: ['Prove that √2 is irrational.', 'What is the capital of France?'],
      zh: ['证明√2是无理数。', '法国的首都是哪里？'],
      ru: ['Докажи, что √2 — иррациональное число.', 'Какая столица Франции?'],
      es: ['Demuestra que √2 es irracional.', '¿Cuál es la capital de Francia?'],
      de: ['Beweise, dass √2 irrational ist.', 'Was ist die Hauptstadt von Frankreich?'],
      fr: ['Démontre que √2 est irrationnel.', 'Quelle est la capitale de la France ?'],
      ja: ['√2が無理数であることを証明してください。', 'フランスの首都はどこですか？'],
      pt: ['Prove que √2 é irracional.', 'Qual é a capital da França?'],
      ko: ['√2가 무리수임을 증명하세요.', '프랑스의 수도는 어디인가요?'],
      ar: ['أثبت أن √2 عدد غير نسبي.', 'ما هي عاصمة فرنسا؟'],
    };
    expect(Object.keys(cases).sort()).toEqual([...KEYWORD_LANGUAGES].sort());
    for (const [language, [reasoning, simple]] of Object.entries(cases)) {
      expect(router.classify(reasoning).tier, `${language}: ${reasoning}`).toBe('REASONING');
      const decision = router.classify(simple);
      expect(decision.tier, `${language}: ${simple}`).toBe('SIMPLE');
      expect(decision.source, `${language}: ${simple}`).toBe('local');
    }
  });
});
