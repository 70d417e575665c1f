import { compileLexicon, type Lexicon, type LexiconScan } from '../text/index.js';
import type { TierOptions } from './options.js';

/**
 * Prompt extraction's case 3: a long user message without a system message, whose last paragraph
 * is likely the user's request and the rest a system prompt sent as user text (claw-llm-router's
 * rule). The request is the text after the last blank line when it is short.
 *
 * In `guarded` mode (the default) two kinds of last paragraph are not taken for the request,
 * because the rule's premise fails for them (measured on `test/fixtures/tier-extraction.jsonl`):
 * - a sign-off ("Thanks!", "Cheers", "Merci d'avance"): the request is before it, so the rule is
 *   applied to the paragraph before; a long request in one paragraph followed by "Thanks!" is
 *   scored whole, not as a greeting;
 * - a request that refers back to the text above it ("Why does this raise a KeyError?", "Is this
 *   proof correct?"): the text above is what it is about, pasted code, a log, an article or a
 *   proof, not a system prompt, so the whole message is scored.
 *
 * A message that opens like a system prompt ("You are…") is trusted to be one: its last paragraph
 * is the request, whatever it says.
 */

/** Sign-offs in the supported languages, compared after case and punctuation are folded. */
export const DEFAULT_SIGN_OFFS: readonly string[] = [
  'thanks',
  'thank you',
  'thanks a lot',
  'thanks so much',
  'thank you so much',
  'thanks in advance',
  'thank you in advance',
  'many thanks',
  'much appreciated',
  'appreciate it',
  'thx',
  'ty',
  'cheers',
  'regards',
  'best',
  'best regards',
  'kind regards',
  'best wishes',
  'all the best',
  'merci',
  'merci beaucoup',
  "merci d'avance",
  'cordialement',
  'bien à vous',
  'danke',
  'danke schön',
  'vielen dank',
  'danke im voraus',
  'viele grüße',
  'mit freundlichen grüßen',
  'gracias',
  'muchas gracias',
  'gracias de antemano',
  'saludos',
  'un saludo',
  'atentamente',
  'obrigado',
  'obrigada',
  'muito obrigado',
  'muito obrigada',
  'desde já obrigado',
  'atenciosamente',
  'abraços',
  'спасибо',
  'большое спасибо',
  'заранее спасибо',
  'спасибо заранее',
  'с уважением',
  '谢谢',
  '多谢',
  '谢谢你',
  '先谢谢了',
  'ありがとう',
  'ありがとうございます',
  'よろしくお願いします',
  'よろしくお願いいたします',
  '감사합니다',
  '고맙습니다',
  '고마워요',
  '미리 감사드립니다',
  'شكرا',
  'شكرا لك',
  'شكرا جزيلا',
  'مع التحية',
  'تحياتي',
];

/**
 * Words that refer back to the text above, in the supported languages: demonstratives (`this`,
 * `ce`, `dieser`, `esto`, `это`, `这个`, `この`, `هذا`), `above`, and `it`/`them`, which after a
 * pasted block usually mean that block.
 */
export const DEFAULT_BACK_REFERENCES: readonly string[] = [
  'this',
  'these',
  'those',
  'it',
  'its',
  'them',
  'above',
  'attached',
  'ce',
  'cet',
  'cette',
  'ces',
  'ceci',
  'cela',
  'ça',
  'ci-dessus',
  'dies',
  'diese',
  'dieser',
  'dieses',
  'diesen',
  'diesem',
  'oben',
  'obige*',
  'esto',
  'este',
  'esta',
  'estos',
  'estas',
  'eso',
  'arriba',
  'isto',
  'isso',
  'esse',
  'essa',
  'estes',
  'acima',
  'это',
  'этот',
  'эта',
  'эти',
  'этого',
  'этой',
  'этом',
  'этих',
  'выше',
  '这段',
  '这个',
  '这些',
  '这篇',
  '这份',
  '上面',
  '上述',
  '以上',
  'この',
  'これ',
  '上記',
  '이것',
  '이거',
  '위의',
  '이 코드',
  '이 글',
  '이 문서',
  'هذا',
  'هذه',
  'أعلاه',
];

/** Where the request starts, and what it is. */
export interface TrailingRequest {
  /** The body ends here (the blank line before the request). */
  readonly at: number;
  readonly text: string;
}

/** Longest line that may follow a sign-off as a signature ("Thanks,\nAna"). */
const SIGNATURE_CHARS = 40;

/**
 * The request at the end of `text` by case 3, or `undefined` when the whole text is to be scored.
 * The caller has checked that case 3 applies (no system message, a long message, mode not `off`).
 */
export function trailingRequest(
  text: string,
  options: TierOptions['extraction'],
): TrailingRequest | undefined {
  const mode = options.trailingMessage;
  let at = text.lastIndexOf('\n\n');
  if (at < 0) return undefined;
  let tail = text.slice(at + 2).trim();
  // A message that opens like a system prompt is one: its last paragraph is the request, whatever
  // it says ("thanks" included). `always` assumes so of every long message.
  const trusted =
    mode === 'always' || (mode !== 'off' && opensLikeSystemPrompt(text, options.personaOpeners));
  if (!trusted) {
    if (mode !== 'guarded') return undefined;
    const signOffs = foldedSignOffs(options.signOffs);
    while (isSignOff(tail, signOffs)) {
      const end = at;
      at = at > 0 ? text.lastIndexOf('\n\n', at - 1) : -1;
      if (at < 0) return undefined;
      tail = text.slice(at + 2, end).trim();
    }
    if (refersBack(tail, options.backReferences)) return undefined;
  }
  return tail.length > 0 && tail.length < options.maxTailChars ? { at, text: tail } : undefined;
}

/** Whether the text opens like a system prompt ("You are…"), by the persona openers. */
export function opensLikeSystemPrompt(text: string, openers: readonly string[]): boolean {
  const head = text.trimStart().slice(0, 40).toLowerCase();
  let lowered = loweredOpeners.get(openers);
  if (!lowered) {
    lowered = openers.map((opener) => opener.toLowerCase());
    loweredOpeners.set(openers, lowered);
  }
  for (const opener of lowered) if (head.startsWith(opener)) return true;
  return false;
}

/** Persona openers in lower case, per options list (lower-casing them per call cost ~0.8 µs). */
const loweredOpeners = new WeakMap<readonly string[], readonly string[]>();

const PUNCTUATION = /[\p{P}\p{S}\s]+/gu;
const fold = (text: string): string => text.toLowerCase().replace(PUNCTUATION, ' ').trim();

/** The sign-offs folded, per options list. */
const signOffSets = new WeakMap<readonly string[], ReadonlySet<string>>();

function foldedSignOffs(list: readonly string[]): ReadonlySet<string> {
  let set = signOffSets.get(list);
  if (!set) {
    set = new Set(list.map(fold));
    signOffSets.set(list, set);
  }
  return set;
}

/** A paragraph that is only a sign-off, possibly followed by a short signature line. */
function isSignOff(paragraph: string, signOffs: ReadonlySet<string>): boolean {
  if (paragraph.length === 0 || paragraph.length > 120) return false;
  if (signOffs.has(fold(paragraph))) return true;
  const lines = paragraph.split('\n');
  return (
    lines.length === 2 &&
    lines[1]!.trim().length <= SIGNATURE_CHARS &&
    signOffs.has(fold(lines[0]!))
  );
}

/** The back-reference lexicons, per options list, with a reusable scan. */
const backReferenceLexicons = new WeakMap<
  readonly string[],
  { readonly lexicon: Lexicon; readonly scan: LexiconScan }
>();

function refersBack(paragraph: string, words: readonly string[]): boolean {
  if (words.length === 0) return false;
  let compiled = backReferenceLexicons.get(words);
  if (!compiled) {
    const lexicon = compileLexicon({ back: words });
    compiled = { lexicon, scan: lexicon.scan('') };
    backReferenceLexicons.set(words, compiled);
  }
  return compiled.lexicon.scan(paragraph, compiled.scan).hitCount > 0;
}
