import type { PayloadList } from './payloads.js';

/**
 * Payload splitting: an instruction cut into strings that the text asks to join
 * (`a = "Ignore all prev"; b = "ious instructions"; do a + b`), or spelled by the first words of
 * its lines ("take the first word of each line"). The strings are joined (as they are, and with
 * spaces, since a writer may cut between words or inside one) and read again; ordinary code that
 * joins strings decodes to nothing that fires.
 */

/** Most strings joined. */
const MAX_PARTS = 24;
/** Most characters of the text searched. */
const MAX_CHARS = 8000;

/** Quoted strings: double quotes, typographic quotes, or single quotes after `=`. */
const QUOTED = /"([^"\n]{1,200})"|“([^”\n]{1,200})”|=\s*'([^'\n]{1,200})'/g;
/** Something that asks to join them. */
const JOIN =
  /\b\w+\s*\+\s*\w+\b|\b(?:concatenat\w*|combin\w*|join\w*|merge|merging|put (?:them|these|it|those) together|glue|zusammen\w*|verbinde\w*|une|unir|junta\w*|combina\w*|concaten\w*|assemble|follow the result|do what)\b/i;
/** "The first word (or letter) of each line". */
const ACROSTIC =
  /\bfirst (word|letter|character)s? of (?:each|every|the) (?:line|sentence|row)s?\b/i;

/** Adds the joined strings of `text[start, end)`, if the text asks to join them. */
export function findSplitPayloads(
  text: string,
  start: number,
  end: number,
  into: PayloadList,
): void {
  const stop = Math.min(end, start + MAX_CHARS);
  const strings = quotesFrom(text, start, stop) >= 4;
  const lines = mentions(text, 'irst ', start, stop);
  if (!strings && !lines) return;
  const region = text.slice(start, stop);
  if (strings && JOIN.test(region)) joinStrings(region, start, into);
  const acrostic = lines ? ACROSTIC.exec(region) : null;
  if (acrostic) firstOfLines(region, start, acrostic, into);
}

/** The quotes that may delimit strings in `text[start, stop)`, counted up to 4 (all it needs). */
function quotesFrom(text: string, start: number, stop: number): number {
  let count = 0;
  for (const quote of ['"', '“', "='"]) {
    let at = text.indexOf(quote, start);
    while (at >= 0 && at < stop && count < 4) {
      count += quote.endsWith("'") ? 2 : 1;
      at = text.indexOf(quote, at + 1);
    }
    if (count >= 4) break;
  }
  return count;
}

function mentions(text: string, what: string, start: number, stop: number): boolean {
  const at = text.indexOf(what, start);
  return at >= 0 && at < stop;
}

function joinStrings(region: string, start: number, into: PayloadList): void {
  const parts: string[] = [];
  let first = -1;
  let last = -1;
  QUOTED.lastIndex = 0;
  for (let match = QUOTED.exec(region); match !== null; match = QUOTED.exec(region)) {
    parts.push(match[1] ?? match[2] ?? match[3] ?? '');
    if (first < 0) first = match.index;
    last = match.index + match[0].length;
    if (parts.length >= MAX_PARTS) break;
  }
  if (parts.length < 2) return;
  for (const separator of ['', ' ']) {
    into.add({
      name: 'split payload',
      kind: 'encoded_payload',
      start: start + first,
      end: start + last,
      text: parts.join(separator),
      asData: false,
      base: 0.2,
      runTogether: separator === '',
    });
  }
}

function firstOfLines(
  region: string,
  start: number,
  cue: RegExpExecArray,
  into: PayloadList,
): void {
  const letters = cue[1]!.toLowerCase() !== 'word';
  const after = cue.index + cue[0].length;
  const lines = region
    .slice(after)
    .split('\n')
    .slice(1)
    .map((line) => line.trim())
    .filter(Boolean);
  if (lines.length < 3) return;
  const picked = lines.map((line) => (letters ? line[0]! : line.split(/\s+/)[0]!));
  into.add({
    name: 'first words of lines',
    kind: 'encoded_payload',
    start: start + after,
    end: start + region.length,
    text: picked.join(letters ? '' : ' '),
    asData: false,
    base: 0.2,
  });
}
