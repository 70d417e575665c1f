import type { Lexicon } from '../text/index.js';
import { LABELS } from '../tier/signals.js';

/**
 * Where in a text the words that drove a decision are, for the console's highlights. Computed
 * only when the console asks (a second scan of the prompt, off the request path): the decisions
 * themselves carry signals as short phrases and never pay for offsets.
 */

/** A span of text that matched, in UTF-16 offsets of the text it was found in. */
export interface MatchSpan {
  readonly start: number;
  readonly end: number;
  /** What it counts as: a tier dimension (`code`, `reasoning`, …), an injection kind, … */
  readonly label: string;
  /** The keyword or rule that matched. */
  readonly match: string;
}

/** Most spans reported for one text (a pasted book need not light up every word). */
export const MAX_SPANS = 200;

const WORD_CHAR = /[\p{L}\p{N}_]/u;
const SEPARATOR = /[\s-]/u;

/**
 * The spans of every keyword of a tier lexicon found in `text`, every occurrence (up to
 * {@link MAX_SPANS}), labelled with the dimension they count for. The scan reports each entry's
 * first occurrence; later ones are found by scanning again from just after the earliest span.
 */
export function lexiconSpans(lexicon: Lexicon, text: string): MatchSpan[] {
  const spans: MatchSpan[] = [];
  const seen = new Set<string>();
  const scan = lexicon.scan('');
  let from = 0;
  while (from < text.length && spans.length < MAX_SPANS) {
    lexicon.scan(text, scan, from, text.length);
    let next = Number.POSITIVE_INFINITY;
    for (const hit of scan.hits()) {
      const start = hit.index;
      const end = matchEnd(text, start, hit.entry.phrase);
      const key = `${hit.entry.id}:${start}`;
      if (end > start && !seen.has(key)) {
        seen.add(key);
        const category = hit.entry.category as keyof typeof LABELS;
        spans.push({ start, end, label: LABELS[category] ?? category, match: hit.entry.label });
      }
      next = Math.min(next, Math.max(end, start + 1));
    }
    if (!Number.isFinite(next)) break;
    from = next;
  }
  return spans.sort((a, b) => a.start - b.start || b.end - a.end).slice(0, MAX_SPANS);
}

/**
 * Where a lexicon phrase matched at `start` ends: its words in turn, each followed by the spaces
 * or hyphens the text has there; a trailing `*` takes the rest of the word.
 */
function matchEnd(text: string, start: number, phrase: string): number {
  const prefix = phrase.endsWith('*');
  const words = phrase
    .replace(/^\*|\*$/g, '')
    .split(/[\s-]+/u)
    .filter(Boolean);
  let at = start;
  for (let w = 0; w < words.length; w++) {
    if (w > 0) while (at < text.length && SEPARATOR.test(text[at]!)) at++;
    at = Math.min(text.length, at + words[w]!.length);
  }
  if (prefix) while (at < text.length && WORD_CHAR.test(text[at]!)) at++;
  return at;
}

/**
 * The spans of phrases (evidence of a rule, such as the context router's) in `text`, each
 * occurrence, found case-insensitively.
 */
export function phraseSpans(
  text: string,
  phrases: readonly { readonly label: string; readonly phrase: string }[],
): MatchSpan[] {
  const lower = text.toLowerCase();
  const spans: MatchSpan[] = [];
  for (const { label, phrase } of phrases) {
    const needle = phrase.toLowerCase().trim();
    if (needle.length === 0) continue;
    for (let at = lower.indexOf(needle); at >= 0; at = lower.indexOf(needle, at + needle.length)) {
      if (spans.length >= MAX_SPANS) break;
      spans.push({ start: at, end: at + needle.length, label, match: phrase });
    }
  }
  return spans.sort((a, b) => a.start - b.start || b.end - a.end);
}
