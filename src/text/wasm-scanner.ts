import { isStringOneByteRepresentation } from 'node:v8';
import type { FoldTable } from './chars.js';
import { SCAN_WASM_BASE64 } from './scan-wasm.js';
import { hashUnits } from './word-hash.js';

/**
 * The WebAssembly side of `Lexicon.scan` (the module is `scan.wat`): one instance per thread,
 * shared by every lexicon. Each lexicon copies its patterns and hash tables into the module's
 * memory once, on its first scan (a block sized to the lexicon: a few KB for a small one); each
 * fold table its 256 KB info table (folded unit and class per UTF-16 unit). Blocks go back to a
 * free list when their lexicon or fold table is garbage-collected.
 *
 * A scan copies the text into the module (see `scan`), runs the whole scan
 * there — matching, verification and counting — and the lexicon reads the distinct hits at the
 * end. The text area grows to the longest text scanned (2 bytes per UTF-16 unit) and is kept
 * for reuse. When WebAssembly is unavailable (e.g. `node --jitless`), `wasmScanner()` returns
 * `undefined` and lexicons scan in JS, with the same results.
 */

/** Offsets (in i32 units) of the result struct the module writes at address 0. */
export const RESULT = {
  words: 0,
  numbers: 1,
  unbounded: 2,
  nonAscii: 3,
  lines: 4,
  questions: 5,
  numbered: 6,
  bullets: 7,
  hitCount: 8,
} as const;

/** A lexicon as the module reads it (see `scan.wat` for the block layout). */
export interface WasmLexicon {
  /** Per pattern: folded units (-1: a separator), and whether its ends are word-bounded. */
  readonly patterns: readonly {
    readonly units: Int32Array;
    readonly leftBounded: boolean;
    readonly rightBounded: boolean;
    /** Letters of one word, left-bounded (`prove`, `optimi*`): verified against the folded copy. */
    readonly lettersOnly: boolean;
  }[];
  /** Hash tables from a word (pair, prefix) hash to the patterns to verify there. */
  readonly exact: WasmTable;
  readonly pair: WasmTable;
  readonly prefix: WasmTable;
  /** Bit n set when some prefix pattern is n letters long (n < 32). */
  readonly prefixLengths: number;
  /** Patterns checked wherever their first folded unit occurs, by that unit. */
  readonly anywhere: ReadonlyMap<number, readonly number[]>;
  /** Some `anywhere` pattern starts with a word character (`*stem`). */
  readonly anywhereWordStarts: boolean;
}

/** An open-addressing table: per slot a key and its patterns (`count` 0: an empty slot). */
export interface WasmTable {
  readonly hashes: Int32Array;
  readonly starts: Int32Array;
  readonly counts: Int32Array;
  readonly patterns: Int32Array;
}

/** Where a prepared lexicon's block is, and where its per-pattern results are (i32 indexes). */
export interface WasmBlock {
  readonly lex: number;
  readonly info: number;
  readonly sentinel: number;
  readonly hits: number;
  readonly occurrences: number;
  readonly first: number;
}

const RESULT_BYTES = 64;
/**
 * Longest text held whole for scanning its parts (see `WasmScanner.scan`): 4 bytes a unit of
 * module memory, so 16 MB at most; parts of longer texts are copied one by one.
 */
const MAX_HELD_UNITS = 1 << 22;

/**
 * Whether V8 holds a string one byte a unit (Node 22.15 and later; before, every string takes
 * the UTF-16 copy). Module-local: some loaders turn imported bindings into getters.
 */
const isOneByte: (text: string) => boolean =
  typeof isStringOneByteRepresentation === 'function' ? isStringOneByteRepresentation : () => false;

/**
 * Writers of a string into a Buffer in one encoding: Node's own `latin1Write` and `ucs2Write`,
 * which `Buffer.write` calls after choosing them by the encoding's name (a property load that
 * every caller of `write` in the process shares, so a megamorphic one). They are not in Node's
 * documentation, so `write` stands in where they are missing.
 */
type Writer = (buffer: Buffer, text: string, at: number, bytes: number) => number;
interface EncodingWriters {
  readonly latin1Write?: (text: string, at: number, bytes: number) => number;
  readonly ucs2Write?: (text: string, at: number, bytes: number) => number;
}
const nodeWriters = Buffer.prototype as unknown as EncodingWriters;
const writeLatin1: Writer =
  typeof nodeWriters.latin1Write === 'function'
    ? (buffer, text, at, bytes) =>
        (buffer as unknown as Required<EncodingWriters>).latin1Write(text, at, bytes)
    : (buffer, text, at, bytes) => buffer.write(text, at, bytes, 'latin1');
const writeUtf16: Writer =
  typeof nodeWriters.ucs2Write === 'function'
    ? (buffer, text, at, bytes) =>
        (buffer as unknown as Required<EncodingWriters>).ucs2Write(text, at, bytes)
    : (buffer, text, at, bytes) => buffer.write(text, at, bytes, 'utf16le');
const PAGE = 65_536;
const HEADER_BYTES = 128;

// The few WebAssembly types used here (the project's TypeScript libs do not declare them).
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
interface WasmApi {
  readonly Module: new (bytes: Uint8Array) => object;
  readonly Instance: new (module: object) => { readonly exports: unknown };
}
interface ScanExports {
  readonly memory: WasmMemory;
  readonly scan: (
    lex: number,
    info: number,
    text: number,
    count: number,
    base: number,
    folded: number,
    bytes: number,
  ) => number;
  readonly widen: (text: number, count: number) => void;
}

/** The shared module instance. */
export class WasmScanner {
  readonly #exports: ScanExports;
  /**
   * The module's `scan`, read once: an instance's exports object has a null prototype, which
   * V8 keeps in dictionary mode, so each `exports.scan` read was a megamorphic load (~10 ns).
   */
  readonly #scan: ScanExports['scan'];
  #buffer: Buffer = Buffer.alloc(0);
  #i32 = new Int32Array(0);
  #u16 = new Uint16Array(0);
  #u8 = new Uint8Array(0);
  #top = RESULT_BYTES;
  /**
   * The text area (byte address) and its room in units (the sentinel included), followed by as
   * much room again where the word loops write the folded letters (and 16 bytes of slack, for
   * the 16-byte compares that verify a one-word entry).
   */
  #textAt = 0;
  #textRoom = 0;
  /**
   * The text the area holds whole, as units, when there is one: parts of it are scanned where
   * they stand, without a copy (see {@link scan}). `undefined` once anything else is written.
   */
  #held: string | undefined;
  /**
   * The last text a part of which was copied: held whole if a part of it is scanned again. This
   * and `#held` keep at most two texts alive until parts of others are scanned.
   */
  #lastPartOf: string | undefined;
  readonly #free = new Map<number, number[]>();
  readonly #infoTables = new WeakMap<FoldTable, { at: number; sentinel: number }>();
  readonly #released = new FinalizationRegistry<{ at: number; size: number }>((block) =>
    this.#release(block.at, block.size),
  );

  constructor(exports: ScanExports) {
    this.#exports = exports;
    this.#scan = exports.scan;
    this.#views();
    this.#textRoom = 4096;
    this.#textAt = this.#allocate(textBytes(this.#textRoom));
  }

  /** The module's memory as i32s (replaced when memory grows: read it after each scan). */
  get i32(): Int32Array {
    return this.#i32;
  }

  /** Copies a lexicon into the module; the block is freed when `owner` is collected. */
  prepare(owner: object, fold: FoldTable, classOf: Uint8Array, lexicon: WasmLexicon): WasmBlock {
    const info = this.#info(fold, classOf);
    const layout = new BlockLayout(lexicon);
    const lex = this.#allocate(layout.size);
    this.#released.register(owner, { at: lex, size: layout.size });
    layout.write(lex, this.#i32, this.#u16, this.#u8);
    return {
      lex,
      info: info.at,
      sentinel: info.sentinel,
      hits: (lex + layout.hits) >> 2,
      occurrences: (lex + layout.occurrences) >> 2,
      first: (lex + layout.first) >> 2,
    };
  }

  /**
   * Scans `text[start, end)` with a prepared lexicon; returns the number of distinct patterns
   * found. The statistics are at {@link RESULT} in {@link i32}, the patterns in the block.
   */
  scan(text: string, start: number, end: number, block: WasmBlock): number {
    const count = end - start;
    const whole = start === 0 && end === text.length;
    // Parts of one text scanned one after another (a document's clauses, by each of several
    // lexicons): from the second, the text is held whole and each part scanned where it stands,
    // with the unit after it replaced by the sentinel for the scan. This saves a copy (and a
    // slice) per part; a text of which one part is scanned is never copied whole.
    if (!whole) {
      if (text === this.#held) return this.#scanHeld(start, end, block);
      if (text === this.#lastPartOf && text.length + 1 <= MAX_HELD_UNITS) {
        this.#hold(text);
        return this.#scanHeld(start, end, block);
      }
      this.#lastPartOf = text;
    }
    this.#held = undefined;
    if (count + 1 > this.#textRoom) this.#growText(count + 1);
    const at = this.#textAt;
    const part = whole ? text : text.slice(start, end);
    // A string V8 holds one byte a unit (every unit under 256: most prompts) is copied as Latin-1
    // bytes, which the module widens into units: a fast call of ~10 ns, where writing UTF-16 is
    // a slow one of ~55 ns whatever the length of a prompt. Any other string is written as
    // UTF-16, its code units as they are (lone surrogates included).
    const oneByte = isOneByte(part);
    if (oneByte) writeLatin1(this.#buffer, part, at, count);
    else writeUtf16(this.#buffer, part, at, count * 2);
    this.#u16[(at >> 1) + count] = block.sentinel;
    return this.#scan(block.lex, block.info, at, count, start, this.#textRoom * 2, oneByte ? 1 : 0);
  }

  /** Copies `text` whole into the text area, as units, and notes it held. */
  #hold(text: string): void {
    const count = text.length;
    if (count + 1 > this.#textRoom) this.#growText(count + 1);
    const at = this.#textAt;
    if (isOneByte(text)) {
      writeLatin1(this.#buffer, text, at, count);
      this.#exports.widen(at, count);
    } else {
      writeUtf16(this.#buffer, text, at, count * 2);
    }
    this.#held = text;
  }

  /** Scans `[start, end)` of the held text (see {@link scan}). */
  #scanHeld(start: number, end: number, block: WasmBlock): number {
    const u16 = this.#u16;
    const after = (this.#textAt >> 1) + end;
    const unit = u16[after]!;
    u16[after] = block.sentinel;
    const at = this.#textAt + start * 2;
    const found = this.#scan(block.lex, block.info, at, end - start, start, this.#textRoom * 2, 0);
    u16[after] = unit; // the module never grows its memory: the view is still this one
    return found;
  }

  #growText(units: number): void {
    this.#held = undefined;
    this.#release(this.#textAt, textBytes(this.#textRoom));
    const room = Math.max(units, this.#textRoom * 2);
    this.#textAt = this.#allocate(textBytes(room));
    this.#textRoom = room;
  }

  /**
   * The info table of a fold table (folded unit | class << 16 per UTF-16 unit, and bit 31 for
   * word characters outside ASCII), built once, and
   * a sentinel unit for it: one that is neither skipped nor a word character.
   */
  #info(fold: FoldTable, classOf: Uint8Array): { at: number; sentinel: number } {
    const known = this.#infoTables.get(fold);
    if (known !== undefined) return known;
    const at = this.#allocate(0x10000 * 4);
    this.#released.register(fold, { at, size: 0x10000 * 4 });
    const i32 = this.#i32;
    const base = at >> 2;
    let sentinel = -1;
    for (let c = 0; c < 0x10000; c++) {
      const f = fold[c]!;
      const cls = classOf[f]!;
      // Bit 30: a word character (one test in the word loops); bit 31: a word character outside
      // ASCII (TextStats.nonAsciiWordChars counts them).
      const word = cls === 1 ? (1 << 30) | (c > 0x7f ? 1 << 31 : 0) : 0;
      const v = f === 0 ? 0 : f | (cls << 16) | word;
      i32[base + c] = v;
      if (sentinel < 0 && v !== 0 && cls !== 1) sentinel = c;
    }
    const table = { at, sentinel };
    this.#infoTables.set(fold, table);
    return table;
  }

  #allocate(size: number): number {
    const rounded = (size + 7) & ~7;
    const reuse = this.#free.get(rounded)?.pop();
    if (reuse !== undefined) return reuse;
    const at = this.#top;
    this.#top += rounded;
    const memory = this.#exports.memory;
    if (this.#top > memory.buffer.byteLength) {
      memory.grow(Math.ceil((this.#top - memory.buffer.byteLength) / PAGE));
      this.#views();
    }
    return at;
  }

  #release(at: number, size: number): void {
    const rounded = (size + 7) & ~7;
    const list = this.#free.get(rounded);
    if (list) list.push(at);
    else this.#free.set(rounded, [at]);
  }

  #views(): void {
    const buffer = this.#exports.memory.buffer;
    this.#buffer = Buffer.from(buffer);
    this.#i32 = new Int32Array(buffer);
    this.#u16 = new Uint16Array(buffer);
    this.#u8 = new Uint8Array(buffer);
  }
}

/**
 * The layout of a lexicon block (offsets in bytes from its start, see `scan.wat`): header,
 * hash tables with their pattern lists, patterns and their units, per-pattern results, filters.
 * Every part is sized by the lexicon, so a small lexicon takes a few KB.
 */
class BlockLayout {
  readonly size: number;
  readonly hits: number;
  readonly occurrences: number;
  readonly first: number;
  readonly #lexicon: WasmLexicon;
  readonly #tables: readonly { table: WasmTable; at: number; lists: number }[];
  readonly #anywhere: { at: number; slots: number; lists: number } | undefined;
  readonly #patterns: number;
  readonly #units: number;
  readonly #stamps: number;
  readonly #filters: readonly { at: number; bits: number }[];
  readonly #prefixFilter: { at: number; bytes: number };
  readonly #anywhereBits: number;

  constructor(lexicon: WasmLexicon) {
    this.#lexicon = lexicon;
    let at = HEADER_BYTES;
    const take = (bytes: number) => {
      const here = at;
      at += (bytes + 7) & ~7;
      return here;
    };
    this.#tables = [lexicon.exact, lexicon.pair, lexicon.prefix].map((table) => {
      const slots = take(table.hashes.length * 32);
      return { table, at: slots, lists: take(listBytes(table.counts)) };
    });
    if (lexicon.anywhere.size > 0) {
      const slots = tableSize(lexicon.anywhere.size);
      let listed = 0;
      for (const ids of lexicon.anywhere.values()) listed += 1 + ids.length;
      this.#anywhere = { at: take(slots * 8), slots, lists: take(listed * 4) };
      this.#anywhereBits = take(0x10000 / 8);
    } else {
      this.#anywhere = undefined;
      this.#anywhereBits = 0;
    }
    const count = lexicon.patterns.length;
    this.#patterns = take(count * 8);
    let units = 0;
    for (let p = 0; p < lexicon.patterns.length; p++) units += lexicon.patterns[p]!.units.length;
    this.#units = take(units * 2 + 16); // + slack: one-word entries are compared 16 bytes at a time
    this.#stamps = take(count * 4);
    this.occurrences = take(count * 4);
    this.first = take(count * 4);
    this.hits = take(count * 4);
    // One bit per hash (its top bits) for the exact and pair tables: about 1 in 32 set.
    this.#filters = [lexicon.exact, lexicon.pair].map((table) => {
      const bits = filterSize(used(table.counts) * 64, 64, 1 << 20);
      return { at: take(bits / 8), bits };
    });
    // The prefix filter has a fixed size (indexed by the hash's top 16 bits: see scan.wat), about
    // 1 in 64 set for a thousand prefix entries; only the word loops that test it need it.
    const bytes = lexicon.prefixLengths !== 0 || lexicon.anywhereWordStarts ? 1 << 16 : 8;
    this.#prefixFilter = { at: take(bytes), bytes };
    this.size = at;
  }

  write(lex: number, i32: Int32Array, u16: Uint16Array, u8: Uint8Array): void {
    const lexicon = this.#lexicon;
    const header = lex >> 2;
    u8.fill(0, lex, lex + this.size);
    for (let k = 0; k < this.#tables.length; k++) {
      const { table, at, lists } = this.#tables[k]!;
      i32[header + 2 * k] = lex + at;
      i32[header + 2 * k + 1] = table.hashes.length - 1;
      let list = lex + lists;
      for (let slot = 0; slot < table.hashes.length; slot++) {
        const n = table.counts[slot]!;
        if (n === 0) continue;
        i32[((lex + at) >> 2) + 8 * slot] = table.hashes[slot]!;
        i32[((lex + at) >> 2) + 8 * slot + 1] = list;
        i32[list >> 2] = n;
        for (let k2 = 0; k2 < n; k2++) {
          i32[(list >> 2) + 1 + k2] = table.patterns[table.starts[slot]! + k2]!;
        }
        list += 4 * (1 + n);
      }
    }
    i32[header + 6] = lexicon.prefixLengths;
    const prefixFilter = this.#prefixFilter;
    i32[header + 7] = lex + prefixFilter.at;
    i32[header + 8] = prefixFilter.bytes - 1;
    this.#markPrefixes(u8, lex + prefixFilter.at);
    [lexicon.exact, lexicon.pair].forEach((table, k) => {
      const { at, bits } = this.#filters[k]!;
      const shift = 32 - Math.log2(bits);
      i32[header + 9 + 2 * k] = lex + at;
      i32[header + 10 + 2 * k] = shift;
      for (let slot = 0; slot < table.hashes.length; slot++) {
        if (table.counts[slot] === 0) continue;
        const bit = table.hashes[slot]! >>> shift;
        u8[lex + at + (bit >>> 3)]! |= 1 << (bit & 7);
      }
    });
    let flags = lexicon.prefixLengths !== 0 ? 4 : 0;
    const anywhere = this.#anywhere;
    if (anywhere) {
      flags |= 1 | (lexicon.anywhereWordStarts ? 2 : 0);
      i32[header + 13] = lex + this.#anywhereBits;
      i32[header + 14] = lex + anywhere.at;
      i32[header + 15] = anywhere.slots - 1;
      let list = lex + anywhere.lists;
      for (const [unit, ids] of lexicon.anywhere) {
        u8[lex + this.#anywhereBits + (unit >>> 3)]! |= 1 << (unit & 7);
        let slot = unit & (anywhere.slots - 1);
        while (i32[((lex + anywhere.at) >> 2) + 2 * slot + 1] !== 0) {
          slot = (slot + 1) & (anywhere.slots - 1);
        }
        i32[((lex + anywhere.at) >> 2) + 2 * slot] = unit;
        i32[((lex + anywhere.at) >> 2) + 2 * slot + 1] = list;
        i32[list >> 2] = ids.length;
        for (let k = 0; k < ids.length; k++) i32[(list >> 2) + 1 + k] = ids[k]!;
        list += 4 * (1 + ids.length);
      }
    }
    i32[header + 16] = flags;
    i32[header + 17] = lex + this.#patterns;
    let units = lex + this.#units;
    const patterns = lexicon.patterns;
    for (let p = 0; p < patterns.length; p++) {
      const pattern = patterns[p]!;
      i32[((lex + this.#patterns) >> 2) + 2 * p] = units;
      i32[((lex + this.#patterns) >> 2) + 2 * p + 1] =
        (pattern.units.length << 3) |
        (pattern.leftBounded ? 1 : 0) |
        (pattern.rightBounded ? 2 : 0) |
        (pattern.lettersOnly ? 4 : 0);
      const patternUnits = pattern.units;
      for (let u = 0; u < patternUnits.length; u++) {
        const unit = patternUnits[u]!;
        u16[units >> 1] = unit === -1 ? 0 : unit; // a separator (-1 in lexicon.ts) is 0 here
        units += 2;
      }
    }
    // Each slot also holds its first pattern's record and id, and its pattern count: a hit on
    // a one-word entry reads one cache line of the table, not the list and the record as well.
    for (const { table, at } of this.#tables) {
      for (let slot = 0; slot < table.hashes.length; slot++) {
        const count = table.counts[slot]!;
        if (count === 0) continue;
        const first = table.patterns[table.starts[slot]!]!;
        const record = ((lex + this.#patterns) >> 2) + 2 * first;
        const at32 = ((lex + at) >> 2) + 8 * slot;
        i32[at32 + 2] = i32[record]!;
        i32[at32 + 3] = i32[record + 1]!;
        i32[at32 + 4] = first;
        i32[at32 + 5] = count;
      }
    }
    i32[header + 19] = lex + this.#stamps;
    i32[header + 20] = lex + this.occurrences;
    i32[header + 21] = lex + this.first;
    i32[header + 22] = lex + this.hits;
    i32[header + 23] = 0; // generation
    i32[header + 24] = lexicon.patterns.length;
  }

  /**
   * Marks the prefix filter (indexed by `hash >>> 16`): bit 0 at the hash of each prefix pattern,
   * bit 1 at the hash of the first three letters of each pattern of four letters or more (a word
   * whose first three letters miss it needs no filter after them: see scan.wat).
   */
  #markPrefixes(u8: Uint8Array, at: number): void {
    const { prefix: table, patterns } = this.#lexicon;
    for (let slot = 0; slot < table.hashes.length; slot++) {
      const count = table.counts[slot]!;
      if (count === 0) continue;
      u8[at + (table.hashes[slot]! >>> 16)]! |= 1;
      for (let k = 0; k < count; k++) {
        const units = patterns[table.patterns[table.starts[slot]! + k]!]!.units;
        if (units.length > 3) u8[at + (hashUnits(units, 3) >>> 16)]! |= 2;
      }
    }
  }
}

/**
 * Copies `count` code units of `text` from `from` to `u16[to]`. A function of its own: the same
 * loop inside `WasmScanner.scan` compiled to a generic store (~8 ns a unit against ~2: measured).
 */
/** Bytes of a text area of `room` units: the text, the folded copy, 16 bytes of slack. */
function textBytes(room: number): number {
  return room * 4 + 16;
}

// Indexed loops rather than for…of here and in the block's writing: this code runs once per
// lexicon, at start-up, before it is optimised, where iterators cost several times more.
function listBytes(counts: Int32Array): number {
  let words = 0;
  for (let k = 0; k < counts.length; k++) if (counts[k]! > 0) words += 1 + counts[k]!;
  return words * 4;
}

function used(counts: Int32Array): number {
  let slots = 0;
  for (let k = 0; k < counts.length; k++) if (counts[k]! > 0) slots++;
  return slots;
}

/** A power of two at least `wanted`, within [min, max]. */
function filterSize(wanted: number, min: number, max: number): number {
  let size = min;
  while (size < wanted && size < max) size *= 2;
  return size;
}

/** Slots of an open-addressing table for `keys` keys: a power of two, at most half full. */
function tableSize(keys: number): number {
  let size = 4;
  while (size < keys * 2) size *= 2;
  return size;
}

let shared: WasmScanner | null | undefined;

/** The scanner of this thread, or `undefined` when WebAssembly is unavailable. */
export function wasmScanner(): WasmScanner | undefined {
  if (shared === undefined) {
    try {
      const api = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;
      if (!api) throw new Error('no WebAssembly');
      const bytes = Buffer.from(SCAN_WASM_BASE64, 'base64');
      const instance = new api.Instance(new api.Module(bytes));
      shared = new WasmScanner(instance.exports as ScanExports);
    } catch {
      shared = null; // no WebAssembly here (--jitless, a restricted runtime): scan in JS
    }
  }
  return shared ?? undefined;
}
