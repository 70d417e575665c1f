import type { CategoryName, PatternRow, PatternTable } from '../categories.js';
import { ENGLISH } from './english.js';
import { FRENCH, GERMAN, ITALIAN, PORTUGUESE, SPANISH } from './european.js';
import { EXFILTRATION } from './exfiltration.js';
import { MORE_LANGUAGES } from './more.js';
import { SECRETS_ENGLISH, SECRETS_EUROPEAN, SECRETS_WORLD } from './secrets.js';
import { ARABIC, CHINESE, JAPANESE, KOREAN, RUSSIAN } from './world.js';

/**
 * The built-in pattern tables: one per language, then the families written for all languages
 * at once (attempts on secrets and personal data, sending data out).
 */
export const LANGUAGE_TABLES: Readonly<Record<string, PatternTable>> = {
  en: ENGLISH,
  de: GERMAN,
  fr: FRENCH,
  es: SPANISH,
  pt: PORTUGUESE,
  it: ITALIAN,
  ru: RUSSIAN,
  zh: CHINESE,
  ja: JAPANESE,
  ko: KOREAN,
  ar: ARABIC,
  more: MORE_LANGUAGES,
  secrets: SECRETS_ENGLISH,
  'secrets-european': SECRETS_EUROPEAN,
  'secrets-world': SECRETS_WORLD,
  exfiltration: EXFILTRATION,
};

/** Every built-in row of one category, over all languages. */
export function builtInRows(category: CategoryName): PatternRow[] {
  const rows: PatternRow[] = [];
  for (const table of Object.values(LANGUAGE_TABLES)) rows.push(...(table[category] ?? []));
  return rows;
}
