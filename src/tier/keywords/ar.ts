import type { LexiconEntryInput } from '../../text/index.js';
import { type KeywordPack, strong, weak } from './pack.js';

/**
 * Arabic. Words carry clitics: the article and one-letter prepositions and conjunctions are
 * written onto the front (الخوارزمية, والقصة, بالجدول) and pronouns and plural endings onto the
 * back. Nouns are therefore expanded with every common proclitic sequence and, when at least four
 * letters long, a trailing `*` for the endings: `nouns('قصيدة')` matches قصيدة, القصيدة, وقصيدتي…
 * Verbs in the imperative take only the conjunctions و and ف. The tier lexicon folds the alef
 * variants (أ إ آ → ا), alef maqsura (ى → ي) and taa marbuta (ة → ه) and drops the tatweel, so
 * entries and prompts match whatever spelling they use.
 */
const NOUN_PROCLITICS = ['', 'ال', 'و', 'وال', 'ب', 'بال', 'ل', 'لل', 'ف', 'فال', 'ك', 'كال'];
const VERB_PROCLITICS = ['', 'و', 'ف'];

function expand(words: string[], proclitics: string[], weight: number): LexiconEntryInput[] {
  const out: LexiconEntryInput[] = [];
  for (const word of words) {
    const [head = '', ...rest] = word.split(' ');
    const open = rest.length === 0 && head.length >= 4 ? '*' : '';
    // A head that already has the article takes only the clitics that go before it.
    const clitics = head.startsWith('ال')
      ? proclitics.filter((c) => !c.includes('ال'))
      : proclitics;
    for (const clitic of clitics) {
      const phrase = [`${clitic}${head}`, ...rest].join(' ') + open;
      out.push(weight === 1 ? phrase : { phrase, weight });
    }
  }
  return out;
}

/** Nouns (and noun phrases, expanded on their first word). */
function nouns(...words: string[]): LexiconEntryInput[] {
  return expand(words, NOUN_PROCLITICS, 1);
}

function weakNouns(...words: string[]): LexiconEntryInput[] {
  return expand(words, NOUN_PROCLITICS, 0.5);
}

/** Imperative verbs. */
function strongNouns(...words: string[]): LexiconEntryInput[] {
  return expand(words, NOUN_PROCLITICS, 2);
}

/** Imperative verbs. */
function verbs(...words: string[]): LexiconEntryInput[] {
  return expand(words, VERB_PROCLITICS, 1);
}

export const ar: KeywordPack = {
  codePresence: [
    ...nouns('كود', 'شيفرة', 'برمجة', 'دالة', 'دوال', 'متغير', 'مصفوفة', 'سكربت', 'بايثون'),
  ],
  reasoningMarkers: [
    // "Prove that", "think step by step", "explain your reasoning": enough on their own.
    ...strong('أثبت أن', 'برهن أن', 'برهن على أن', 'فكر خطوة بخطوة', 'اشرح استدلالك'),
    ...strong('اشرح طريقة تفكيرك'),
    ...strongNouns('برهان دقيق', 'إثبات دقيق'),
    ...verbs('برهن', 'أثبت', 'استنتج', 'اشتق', 'حل'),
    ...nouns('إثبات', 'برهان', 'مبرهنة', 'استقراء', 'لغز', 'استدلال'),
    'خطوة بخطوة',
    'بالتناقض',
    'حل المعادلة',
    ...weakNouns('معادلة', 'احتمال', 'تكامل', 'مشتقة', 'نظرية', 'منطق'),
    ...weak('احسب', 'غير نسبي', 'لا نهائي', 'لا نهائيا', 'عدد أولي'),
    ...weakNouns('أعداد أولية', 'الأعداد الأولية'),
  ],
  technicalTerms: [
    ...nouns('خوارزمية', 'خوارزميات', 'معمارية', 'بنية تحتية', 'موزعة', 'قاعدة بيانات'),
    ...nouns('قواعد بيانات', 'خادم', 'خوادم', 'تعلم الآلة', 'تعلم آلي', 'شبكة عصبية'),
    ...nouns('شبكات عصبية', 'تشفير', 'هيكل البيانات', 'هياكل البيانات', 'بروتوكول'),
    ...nouns('خدمات مصغرة', 'خط بيانات', 'خطوط بيانات', 'مستودع بيانات', 'طابور رسائل'),
    ...nouns('ذاكرة تخزين مؤقت', 'قابلة للتوسع', 'قابلية التوسع', 'ترحيل', 'بوابة', 'مراقبة'),
    'في الوقت الفعلي',
    ...weakNouns('تعقيد', 'أداء', 'نموذج'),
  ],
  creativeMarkers: [
    ...nouns('قصة', 'قصص', 'حكاية', 'قصيدة', 'أغنية', 'رواية', 'سيناريو', 'عصف ذهني', 'مقال'),
    ...verbs('تخيل'),
    ...weakNouns('شعر'),
  ],
  simpleIndicators: [
    'مرحبا',
    'السلام عليكم',
    'شكرا',
    ...nouns('عاصمة', 'طقس', 'تعريف'),
    'ماذا يعني',
    'ما معنى',
    ...verbs('ترجم'),
    'كيف حالك',
    'من كتب',
    'من اخترع',
    'من اكتشف',
    'من رسم',
    'من ألف',
    'صباح الخير',
    'مساء الخير',
    // Question openers: common in simple questions, but they open hard ones too.
    ...weak('ما هو', 'ما هي', 'من هو', 'من هي', 'أين', 'متى', 'كم'),
  ],
  multiStepPatterns: [
    'أولا',
    'ثانيا',
    'ثم',
    'بعد ذلك',
    'أخيرا',
    'في النهاية',
    ...strong('الخطوة 1', 'الخطوة الأولى'),
  ],
  imperativeVerbs: [
    ...verbs('أنشئ', 'طور', 'صمم', 'اكتب', 'نفذ', 'حلل', 'قارن', 'لخص', 'أعد كتابة'),
    ...verbs('اشرح', 'انقل', 'حدد'),
  ],
  constraintCount: [
    'على الأكثر',
    'على الأقل',
    'لا يزيد عن',
    'حد أقصى',
    'الحد الأقصى',
    'الحد الأدنى',
    ...nouns('ميزانية'),
    'يجب',
  ],
  outputFormat: [...nouns('جدول', 'تنسيق', 'قائمة', 'نقاط')],
  referenceComplexity: ['أعلاه', 'أدناه', 'المرفق', 'التوثيق', 'هذا الكود', 'التالي', 'السابق'],
  negationComplexity: ['لا تستخدم', 'تجنب', 'بدون', 'دون', 'باستثناء', 'أبدا'],
  domainSpecificity: [
    'ميكانيكا الكم',
    ...nouns('كمومي', 'جينوم', 'علم التشفير', 'بلوكتشين', 'طوبولوجيا', 'الديناميكا الحرارية'),
    'النسبية',
  ],
  agenticTask: [...verbs('أصلح', 'صحح', 'شغل', 'عدل'), 'اقرأ الملف', ...nouns('مستودع')],
};

/** The folds Arabic needs on top of the default table (see the module comment). */
export const ARABIC_FOLDS: Readonly<Record<string, string>> = {
  أ: 'ا',
  إ: 'ا',
  آ: 'ا',
  ٱ: 'ا',
  ى: 'ي',
  ة: 'ه',
  ـ: '',
};
