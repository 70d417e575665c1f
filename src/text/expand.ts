/**
 * Expands a compact pattern into the literal phrases a lexicon matches, so that lexicons stay
 * literal (and fast) while their sources stay short:
 *
 *     expandAlternatives('ignore (all |any |)(previous|prior) instructions')
 *     // → ignore all previous instructions, ignore all prior instructions, ignore any previous …
 *
 * A group `(a|b|c)` picks one alternative; an empty alternative makes the group optional. Groups
 * may nest. Runs of spaces left by empty alternatives collapse to one.
 */
export function expandAlternatives(pattern: string, limit = 10_000): string[] {
  const parser = { text: pattern, at: 0 };
  const results = parseSequence(parser, limit);
  if (parser.at !== pattern.length) {
    throw new SyntaxError(`unbalanced ')' at ${parser.at} in pattern: ${pattern}`);
  }
  return [...new Set(results.map((phrase) => phrase.replace(/\s+/g, ' ').trim()))];
}

interface Parser {
  readonly text: string;
  at: number;
}

// sequence := (literal | group)*   group := '(' sequence ('|' sequence)* ')'
function parseSequence(parser: Parser, limit: number): string[] {
  let results = [''];
  while (parser.at < parser.text.length) {
    const char = parser.text[parser.at]!;
    if (char === ')' || char === '|') break;
    let parts: string[];
    if (char === '(') {
      parser.at++;
      parts = [];
      for (;;) {
        parts.push(...parseSequence(parser, limit));
        const next = parser.text[parser.at];
        parser.at++;
        if (next === '|') continue;
        if (next === ')') break;
        throw new SyntaxError(`unclosed '(' in pattern: ${parser.text}`);
      }
    } else {
      let end = parser.at;
      while (end < parser.text.length && !'()|'.includes(parser.text[end]!)) end++;
      parts = [parser.text.slice(parser.at, end)];
      parser.at = end;
    }
    if (results.length * parts.length > limit) {
      throw new RangeError(`pattern expands to more than ${limit} phrases: ${parser.text}`);
    }
    results = results.flatMap((prefix) => parts.map((part) => prefix + part));
  }
  return results;
}
