import fc from 'fast-check';

/** The pieces the sentence splitter has a rule for: abbreviations, numbers, marks, list items. */
const pieces = fc.constantFrom(
  'word',
  'Word',
  'e.g.',
  'Dr.',
  'U.S.',
  'etc.',
  'No.',
  '5',
  '3.14',
  'https://x.io/a.b?c=d',
  '.',
  '!',
  '?',
  '...',
  '…',
  '"',
  ')',
  '。',
  '词',
  '\n',
  '\n\n',
  '- ',
  '1. ',
  '2)',
  '• ',
  'K.',
  '\t',
  '\r\n',
  ' ',
);

/**
 * Texts for property tests of the splitter: those pieces in any order, glued or spaced, and
 * arbitrary strings.
 */
export const sentenceTexts = fc.oneof(
  fc.array(pieces, { maxLength: 40 }).map((parts) => parts.join('')),
  fc.array(pieces, { maxLength: 40 }).map((parts) => parts.join(' ')),
  fc.string({ maxLength: 60 }),
);
