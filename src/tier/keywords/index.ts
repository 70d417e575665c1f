import { ar } from './ar.js';
import { de } from './de.js';
import { en } from './en.js';
import { es } from './es.js';
import { fr } from './fr.js';
import { ja } from './ja.js';
import { ko } from './ko.js';
import type { KeywordPack } from './pack.js';
import { pt } from './pt.js';
import { ru } from './ru.js';
import { zh } from './zh.js';

export { ARABIC_FOLDS } from './ar.js';
export {
  DIMENSIONS,
  type Dimension,
  KEYWORD_DIMENSIONS,
  type KeywordDimension,
  type KeywordPack,
} from './pack.js';

/** The built-in keyword packs, by ISO 639-1 code. */
export const KEYWORD_PACKS: Readonly<Record<KeywordLanguage, KeywordPack>> = {
  en,
  zh,
  ja,
  ko,
  ru,
  es,
  pt,
  de,
  fr,
  ar,
};

/** A language with a built-in keyword pack. */
export type KeywordLanguage = 'en' | 'zh' | 'ja' | 'ko' | 'ru' | 'es' | 'pt' | 'de' | 'fr' | 'ar';

/** Every built-in language, the default of the `languages` option. */
export const KEYWORD_LANGUAGES: readonly KeywordLanguage[] = Object.keys(
  KEYWORD_PACKS,
) as KeywordLanguage[];
