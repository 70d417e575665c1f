/**
 * Input sanitising shared by the subsystems that accept raw text from users (the original design's input
 * handling, departing from the original design): a leading byte-order mark removed, control characters removed except tab,
 * line feed and carriage return, unpaired surrogates (invalid UTF-16, e.g. from a broken client)
 * replaced by U+FFFD, and the result in Unicode NFC.
 */

// C0 and C1 controls and DEL, except tab (09), line feed (0A) and carriage return (0D).
const CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;

/** Sanitises `text` as described above. Returns the same string when nothing needs changing. */
export function sanitizeText(text: string): string {
  let out = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (!out.isWellFormed()) out = out.toWellFormed();
  CONTROLS.lastIndex = 0;
  if (CONTROLS.test(out)) {
    CONTROLS.lastIndex = 0;
    out = out.replace(CONTROLS, '');
  }
  return out.normalize('NFC');
}
