import type { PayloadList } from './payloads.js';

/**
 * Text a reader does not see but a model does: HTML comments, elements hidden by their style
 * (`display:none`, `font-size:0`, white on white, `hidden`), image descriptions and titles, and
 * Markdown comments. Any source may carry them, a user's message included (a pasted page): what
 * they say is read again as data, so that an instruction hidden in them counts as one planted in
 * a document, and a harmless comment (`<!-- header -->`) counts for nothing.
 */

/** Most characters of one hidden element read (its content up to its closing tag). */
const MAX_HIDDEN_CHARS = 2000;

const COMMENT_OPEN = '<!--';
const COMMENT_CLOSE = '-->';

/**
 * An opening tag whose style or attributes hide it. Its quantifiers are bounded (a tag of at
 * most a few hundred characters), so that text full of `<` without `>` costs linear time.
 */
const HIDDEN_TAG =
  /<([a-z][a-z0-9]{0,15})\b[^>]{0,300}?(?:\bstyle\s*=\s*["'][^"']{0,300}?(?:display\s*:\s*none|visibility\s*:\s*hidden|font-size\s*:\s*0(?:\.0+)?(?:px|pt|em|rem|%)?(?=\s*[;"'])|opacity\s*:\s*0(?:\.0+)?(?=\s*[;"'])|(?<![\w-])color\s*:\s*(?:#fff(?:fff)?|white|transparent|rgba\([^)]{0,40},\s*0\))|(?:height|width|max-height)\s*:\s*0(?:px)?(?=\s*[;"'])|left\s*:\s*-\d{3,})[^"']{0,300}["']|\shidden(?:\s|>|=)|\baria-hidden\s*=\s*["']true["'])[^>]{0,300}>/gi;
/** Text in attributes that describe an element: image descriptions, titles, labels. */
const DESCRIPTION = /\b(?:alt|title|aria-label|data-[a-z-]+)\s*=\s*(["'])([^"'<>]{16,600})\1/gi;
/** Markdown comments: `[//]: # (…)` and `[comment]: <> (…)`. */
const MARKDOWN_COMMENT = /^\s*\[(?:\/\/|comment)\]:\s*(?:#|<>)\s*\((.*)\)\s*$/gim;

/** Adds the hidden text of `text[start, end)` to `into`. */
export function findHiddenMarkup(
  text: string,
  start: number,
  end: number,
  into: PayloadList,
): void {
  const open = text.indexOf('<', start);
  const hasTags = open >= 0 && open < end;
  if (hasTags) {
    comments(text, start, end, into);
    if (mayHide(text, start, end)) hiddenElements(text, start, end, into);
    const equals = text.indexOf('=', open);
    if (equals >= 0 && equals < end) descriptions(text, start, end, into);
  }
  const markdown = text.indexOf(']:', start);
  if (markdown >= 0 && markdown < end) markdownComments(text, start, end, into);
}

function comments(text: string, start: number, end: number, into: PayloadList): void {
  let at = text.indexOf(COMMENT_OPEN, start);
  while (at >= 0 && at < end) {
    const from = at + COMMENT_OPEN.length;
    const close = text.indexOf(COMMENT_CLOSE, from);
    const to = close < 0 || close > end ? end : close;
    into.add(
      payload(
        'HTML comment',
        at,
        to,
        text.slice(from, Math.min(to, from + MAX_HIDDEN_CHARS)),
        0.35,
      ),
    );
    at = close < 0 ? -1 : text.indexOf(COMMENT_OPEN, close + COMMENT_CLOSE.length);
  }
}

/** Whether the region has a style or an attribute that can hide an element. */
function mayHide(text: string, start: number, end: number): boolean {
  for (const word of ['style', 'hidden']) {
    const at = text.indexOf(word, start);
    if (at >= 0 && at < end) return true;
  }
  return false;
}

function hiddenElements(text: string, start: number, end: number, into: PayloadList): void {
  const region = slice(text, start, end);
  const lower = region.toLowerCase();
  HIDDEN_TAG.lastIndex = 0;
  for (let match = HIDDEN_TAG.exec(region); match !== null; match = HIDDEN_TAG.exec(region)) {
    const from = match.index + match[0].length;
    const closing = lower.indexOf(`</${match[1]!.toLowerCase()}`, from);
    const to = Math.min(closing < 0 ? region.length : closing, from + MAX_HIDDEN_CHARS);
    into.add(
      payload(
        'hidden text',
        start + match.index,
        start + to,
        stripTags(region.slice(from, to)),
        0.35,
      ),
    );
  }
}

function descriptions(text: string, start: number, end: number, into: PayloadList): void {
  const region = slice(text, start, end);
  DESCRIPTION.lastIndex = 0;
  for (let match = DESCRIPTION.exec(region); match !== null; match = DESCRIPTION.exec(region)) {
    const at = start + match.index;
    into.add(payload('element description', at, at + match[0].length, match[2]!, 0.25));
  }
}

function markdownComments(text: string, start: number, end: number, into: PayloadList): void {
  const region = slice(text, start, end);
  MARKDOWN_COMMENT.lastIndex = 0;
  for (
    let match = MARKDOWN_COMMENT.exec(region);
    match !== null;
    match = MARKDOWN_COMMENT.exec(region)
  ) {
    const at = start + match.index;
    into.add(payload('Markdown comment', at, at + match[0].length, match[1]!, 0.35));
  }
}

function payload(name: string, start: number, end: number, content: string, base: number) {
  return {
    name,
    kind: 'hidden_instruction' as const,
    start,
    end,
    text: content,
    asData: true,
    base,
  };
}

function slice(text: string, start: number, end: number): string {
  return start === 0 && end === text.length ? text : text.slice(start, end);
}

/** The text of an element's content, its inner tags removed. */
function stripTags(html: string): string {
  return html.replace(/<[^>]*>/g, ' ');
}
