import { readFileSync } from 'node:fs';
import { isStringOneByteRepresentation } from 'node:v8';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import wabtInit from 'wabt';
import { compileLexicon, type LexiconSpec } from './lexicon.js';
import { SCAN_WASM_BASE64 } from './scan-wasm.js';
import { wasmScanner } from './wasm-scanner.js';

// The WebAssembly scanner must find exactly what the JS scanner finds: the same entries, counts,
// first positions, and statistics, on any text, including across chunk boundaries and past the
// candidate buffer.
const SPEC: LexiconSpec = {
  words: ['prove', 'theorem', 'the', 'api', 'c++', 'node.js', "what's", 'x', 'step-by-step'],
  phrases: ['the docs', 'the api', 'step 1', 'what is', 'capital of', 'think step by step'],
  stems: ['optimi*', 'докаж*', '코드*', 'ab*', 'a*'],
  anywhere: ['证明', '```', '=>', '=', '関数', '*tektur'],
};
const both = (spec: LexiconSpec) =>
  [compileLexicon(spec), compileLexicon(spec, { scanner: 'js' })] as const;
const snapshot = (lexicon: ReturnType<typeof compileLexicon>, text: string) => {
  const scan = lexicon.scan(text);
  return {
    hits: scan.hits().map((hit) => [hit.entry.id, hit.occurrences, hit.index]),
    stats: { ...scan.stats },
  };
};
const PIECES = [
  'prove the theorem',
  'the docs and the\n api',
  '1. step 1\n2) step-by-step\n- bullet\n* star\n• dot',
  "what's what is the capital of",
  '证明関数```=> a = b',
  'optimise OPTIMIZATION докажите 코드를',
  'x x-x c++ node.js ab abc a',
  'Architektur softwarearchitektur',
  '\u200bpro\u00adve',
  '   \t\n\n?? ？',
  '😀\ud800\udc00\udfff',
];

describe('the WebAssembly scanner', () => {
  it('is available here, and used for texts of 32 units or more by default', () => {
    expect(wasmScanner()).toBeDefined();
    const lexicon = compileLexicon(SPEC);
    const text = 'prove the theorem '.repeat(10);
    expect(lexicon.scan(text).hits()).toEqual(
      compileLexicon(SPEC, { scanner: 'js' }).scan(text).hits(),
    );
  });

  it('finds exactly what the JS scanner finds, on any text', () => {
    const [wasm, js] = both(SPEC);
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(fc.constantFrom(...PIECES), fc.string({ unit: 'binary', maxLength: 40 })),
          {
            maxLength: 12,
          },
        ),
        (parts) => {
          const text = parts.join(' ');
          expect(snapshot(wasm, text)).toEqual(snapshot(js, text));
        },
      ),
      { numRuns: 300 },
    );
  });

  // The module has a word loop per kind of lexicon: with `*stem` entries (SPEC above), with
  // prefix entries only (the tier lexicon's; a word's first letter is tested against them only
  // when some are one letter long), and with neither. Each must agree with the JS scanner.
  const ANYWHERE_NO_STEMS = ['证明', '```', '=>', '=', '関数'];
  it.each([
    ['prefix entries, no *stem entries', { ...SPEC, anywhere: ANYWHERE_NO_STEMS }],
    [
      'prefix entries of two letters or more',
      { ...SPEC, stems: ['optimi*', 'докаж*', '코드*', 'ab*'], anywhere: ANYWHERE_NO_STEMS },
    ],
    ['neither prefix nor *stem entries', { words: SPEC.words!, phrases: SPEC.phrases! }],
  ] as const)('finds exactly what the JS scanner finds with %s', (_, spec: LexiconSpec) => {
    const [wasm, js] = both(spec);
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(fc.constantFrom(...PIECES), fc.string({ unit: 'binary', maxLength: 40 })),
          { maxLength: 12 },
        ),
        (parts) => {
          const text = parts.join(' ');
          expect(snapshot(wasm, text)).toEqual(snapshot(js, text));
        },
      ),
      { numRuns: 200 },
    );
  });

  // Words of every length around 8 and 16 units (where a loop that takes letters in blocks would
  // turn) and of one to four letters (where the prefix loop starts), ASCII letters mixed with
  // non-ASCII ones, digits and skipped units inside a word, and a word that ends the text, in
  // each kind of word loop: entries of those lengths must be found (and only those), whole or by
  // prefix.
  const LONG_WORDS: LexiconSpec = {
    words: ['abcdefgh', 'abcdefghijklmnop', 'abcdefghi', 'abcdefg', 'straße', 'résumé', 'abcdéfgh'],
    phrases: ['abcdefgh abcdefghijklmnop', 'abcdefghijklmnopq x'],
    // Prefix entries of one to four letters too: after a word's third letter, the prefix loop
    // carries on only when some entry longer than three letters starts with those three.
    stems: ['abcdefghijklmnopqr*', 'abcdefgh*', 'straß*', 'abc*', 'abd*', 'abcf*', 'bé*', 'q*'],
  };
  const letters = fc.constantFrom(
    ...'abcdefghijklmnopqrsABCDEFGHIJKLMNOPQRSTUVWXYZéßÉü1\u00ad\u200b',
  );
  const word = fc.oneof(
    fc.integer({ min: 1, max: 20 }).map((n) => 'AbCdEfGhIjKlMnOpQrStU'.slice(0, n)),
    fc.array(letters, { minLength: 1, maxLength: 24 }).map((units) => units.join('')),
    fc.constantFrom('straße', 'STRASSE', 'résumé', 'abcdéfgh', 'abcdefgh-abcdefghijklmnop'),
  );
  it.each([
    ['*stem and prefix entries', { ...LONG_WORDS, anywhere: ['*ijkl'] }],
    ['prefix entries', LONG_WORDS],
    ['neither', { words: LONG_WORDS.words!, phrases: LONG_WORDS.phrases! }],
  ] as const)(
    'agrees on words of any length and mix of scripts, with %s',
    (_, spec: LexiconSpec) => {
      const [wasm, js] = both(spec);
      fc.assert(
        fc.property(
          fc.array(word, { maxLength: 10 }),
          fc.constantFrom(' ', '\n', ', ', '  '),
          (words, gap) => {
            const text = words.join(gap); // the last word ends the text
            expect(snapshot(wasm, text)).toEqual(snapshot(js, text));
            const padded = `${text} ${'x'.repeat(32)}`; // long enough for the module on its own
            expect(snapshot(wasm, padded)).toEqual(snapshot(js, padded));
          },
        ),
        { numRuns: 300 },
      );
      const exact = 'abcdefgh abcdefghijklmnop abcdefghijklmnopqrst abcdefg ABCDEFGHI';
      expect(snapshot(wasm, exact).hits.length).toBeGreaterThanOrEqual(5);
    },
  );

  it('agrees on long texts (the text area grows) and on texts dense with hits', () => {
    const [wasm, js] = both(SPEC);
    const long = PIECES.join(' ').repeat(Math.ceil(100_000 / PIECES.join(' ').length));
    expect(snapshot(wasm, long)).toEqual(snapshot(js, long));
    const dense = 'x '.repeat(20_000);
    expect(snapshot(wasm, dense)).toEqual(snapshot(js, dense));
    const last = `${'y'.repeat(70_000)} prove theorem`; // hits at the very end of a long text
    expect(snapshot(wasm, last).hits).toHaveLength(2);
    expect(snapshot(wasm, 'prove theorem').hits).toHaveLength(2); // a short text after a long one
  });

  it('agrees on ranges of a text', () => {
    const [wasm, js] = both(SPEC);
    const text = 'the docs, prove the theorem; step 1';
    const a = wasm.scan(text, undefined, 4, 20);
    const b = js.scan(text, undefined, 4, 20);
    expect(a.hits()).toEqual(b.hits());
    expect(a.stats).toEqual(b.stats);
  });

  // A string V8 holds one byte a unit is copied in as bytes and widened by the module (16 units
  // at a time, the rest one by one); any other as UTF-16. Text of units under 256 is written
  // both ways here, by taking it out of a two-byte string, and must scan the same both ways, and
  // the same as with the JS scanner, whatever its length.
  it('scans one-byte and two-byte strings of the same text alike', () => {
    const [wasm, js] = both(SPEC);
    const latin1 = fc.oneof(
      fc.constantFrom(
        'prove ',
        'the docs ',
        'Straße ',
        'résumé ',
        '\u00adx ',
        '1. step 1\n',
        '\u00ff',
      ),
      fc.string({ unit: fc.integer({ min: 0, max: 255 }).map((c) => String.fromCharCode(c)) }),
    );
    let twoByteSeen = false;
    fc.assert(
      fc.property(fc.array(latin1, { maxLength: 12 }), fc.nat(40), (parts, pad) => {
        const oneByte = `${parts.join('')}${'x'.repeat(pad)}`;
        const twoByte = `\u0100${oneByte}`.slice(1);
        expect(isStringOneByteRepresentation(oneByte)).toBe(true);
        if (!isStringOneByteRepresentation(twoByte)) twoByteSeen = true;
        const expected = snapshot(js, oneByte);
        expect(snapshot(wasm, oneByte)).toEqual(expected);
        expect(snapshot(wasm, twoByte)).toEqual(expected);
      }),
      { numRuns: 300 },
    );
    expect(twoByteSeen).toBe(true);
  });

  // Parts of a text scanned one after another are scanned where the text is held whole in the
  // module (from the second part on), with a sentinel put after each part for its scan. Parts of
  // several texts, by several lexicons, interleaved, and whole texts between them, must scan as
  // the JS scanner scans them, and leave the held text as it was.
  it('scans parts of texts alike, however the parts of several texts interleave', () => {
    const lexicons = [both(SPEC), both({ words: SPEC.words!, phrases: SPEC.phrases! })];
    const text = fc
      .array(fc.oneof(fc.constantFrom(...PIECES), fc.string({ unit: 'binary', maxLength: 20 })), {
        maxLength: 8,
      })
      .map((parts) => parts.join(' '));
    const step = fc.record({
      text: fc.nat(2),
      lexicon: fc.nat(1),
      from: fc.nat(),
      to: fc.nat(),
      whole: fc.boolean(),
    });
    fc.assert(
      fc.property(
        // Three texts, two of them of one length (a held text is known by its content).
        fc.tuple(text, text, fc.nat()).map(([first, other, at]) => {
          const i = first.length === 0 ? 0 : at % first.length;
          return [first, `${first.slice(0, i)}p${first.slice(i + 1)}`, other];
        }),
        fc.array(step, { maxLength: 25 }),
        (texts, steps) => {
          for (const { text: t, lexicon, from, to, whole } of steps) {
            const value = texts[t]!;
            const start = whole ? 0 : from % (value.length + 1);
            const end = whole ? value.length : start + (to % (value.length - start + 1));
            const [wasm, js] = lexicons[lexicon]!;
            const a = wasm.scan(value, undefined, start, end);
            const b = js.scan(value, undefined, start, end);
            expect(a.hits()).toEqual(b.hits());
            expect(a.stats).toEqual(b.stats);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('is built from scan.wat (run `node scripts/build-wasm.mjs` after editing it)', async () => {
    const wabt = await wabtInit();
    const wat = readFileSync(new URL('./scan.wat', import.meta.url), 'utf8');
    const module = wabt.parseWat('scan.wat', wat);
    const { buffer } = module.toBinary({ write_debug_names: false });
    module.destroy();
    expect(Buffer.from(buffer).toString('base64')).toBe(SCAN_WASM_BASE64);
  });
});
