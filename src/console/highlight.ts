import { escapeHtml } from './charts.js';

/** A span to mark in a text, with the class of its part (`tier`, `injection`, `context`). */
export interface Mark {
  readonly start: number;
  readonly end: number;
  readonly part: string;
  readonly label: string;
  readonly match: string;
}

/**
 * A text as HTML with its spans marked (`<mark class="hl-PART">`), each with a title saying what
 * it matched. Overlapping spans are not nested: a span starting inside an earlier one is cut to
 * begin where that one ends (dropped when nothing is left), so every character is marked once.
 */
export function highlight(text: string, marks: readonly Mark[]): string {
  const sorted = [...marks]
    .filter((m) => m.end > m.start && m.start >= 0 && m.end <= text.length)
    .sort((a, b) => a.start - b.start || b.end - a.end);
  let html = '';
  let at = 0;
  for (const mark of sorted) {
    const start = Math.max(mark.start, at);
    if (start >= mark.end) continue;
    html += escapeHtml(text.slice(at, start));
    const title = `${mark.part} · ${mark.label}: ${mark.match}`;
    html +=
      `<mark class="hl-${escapeHtml(mark.part)}" title="${escapeHtml(title)}" ` +
      `data-label="${escapeHtml(mark.label)}">${escapeHtml(text.slice(start, mark.end))}</mark>`;
    at = mark.end;
  }
  return html + escapeHtml(text.slice(at));
}
