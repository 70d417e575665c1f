import type { FoldTable } from './chars.js';
import { SCAN_WASM_BASE64 } from './scan-wasm.js';

/**
 * The WebAssembly side of `Lexicon.scan` (the module is `scan.wat`): one instance per thread,
 * shared by every lexicon. Each lexicon copies its hash tables into the module's memory once, on
 * its first scan; each fold table its 256 KB info table (folded unit and class per UTF-16 unit).
 * Blocks are returned to a free list when their lexicon or fold table is garbage-collected.
 *
 * A scan copies the text into the module in chunks (`Buffer.write` with `utf16le`: a memory
 * copy, ~0.1 ns per unit), runs the loop, and hands back candidates for the JS side to verify.
 * When WebAssembly is unavailable (e.g. `node --jitless`), `wasmScanner()` returns `undefined`
 * and lexicons scan in JS, with the same results.
 */

/** Candidate kinds written by the module. */
export const CANDIDATE = {
  exact: 1,
  pair: 2,
  prefix: 3,
  anywhere: 4,
  numbered: 5,
  bullet: 6,
} as const;

/** Room for candidates per call (8 bytes each). */
const CANDIDATE_ROOM = 4096;
/** UTF-16 units copied per chunk. */
export const CHUNK_UNITS = 32_768;
/** The scan state struct (offsets in bytes, as in scan.wat). */
const STATE = {
  words: 20,
  numbers: 24,
  unbounded: 28,
  nonAscii: 32,
  lines: 36,
  questions: 40,
  outCount: 44,
  base: 56,
  lex: 60,
  out: 68,
  room: 72,
} as const;
const OUT_AT = 128;
const TEXT_AT = OUT_AT + CANDIDATE_ROOM * 8;
const HEAP_AT = TEXT_AT + CHUNK_UNITS * 2;
const PAGE = 65_536;
/** Bytes of a lexicon block's header (see scan.wat). */
const BLOCK_HEADER = 64;
/** Bytes of a word filter: 2^17 bits. */
const WORD_FILTER = 16_384;

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
  readonly reset: () => void;
  readonly scan: (text: number, count: number, info: number) => number;
  readonly finish: () => void;
}

/** The hash tables of a lexicon, as the module reads them. */
export interface WasmTables {
  readonly exact: { readonly hashes: Int32Array; readonly counts: Int32Array };
  readonly pair: { readonly hashes: Int32Array; readonly counts: Int32Array };
  readonly prefix: { readonly hashes: Int32Array; readonly counts: Int32Array };
  readonly prefixLengths: number;
  readonly prefixFilter: Uint8Array;
  readonly prefixFilter2: Uint8Array;
  /** Folded units that start an `anywhere` entry. */
  readonly anywhereUnits: Iterable<number>;
  readonly hasAnywhere: boolean;
  readonly hasAnywhereWordStarts: boolean;
}

/** Statistics the module gathers. */
export interface WasmStats {
  words: number;
  numbers: number;
  unbounded: number;
  nonAscii: number;
  lines: number;
  questions: number;
}

/** The shared module instance. */
export class WasmScanner {
  readonly #exports: ScanExports;
  #buffer: Buffer;
  #i32: Int32Array;
  #u8: Uint8Array;
  /** A view of the candidate buffer. */
  #candidates: Int32Array;
  #top = HEAP_AT;
  readonly #free = new Map<number, number[]>();
  readonly #infoTables = new WeakMap<FoldTable, number>();
  readonly #released = new FinalizationRegistry<{ at: number; size: number }>((block) =>
    this.#release(block.at, block.size),
  );

  constructor(exports: ScanExports) {
    this.#exports = exports;
    this.#buffer = Buffer.alloc(0);
    this.#i32 = new Int32Array(0);
    this.#u8 = new Uint8Array(0);
    this.#candidates = new Int32Array(0);
    this.#views();
  }

  /** Copies a lexicon's tables into the module; the block is freed when `owner` is collected. */
  prepare(
    owner: object,
    fold: FoldTable,
    classOf: Uint8Array,
    tables: WasmTables,
  ): { lex: number; info: number } {
    const info = this.#info(fold, classOf);
    const parts = [tables.exact, tables.pair, tables.prefix];
    const tableBytes = parts.map((table) => table.hashes.length * 8);
    const size =
      BLOCK_HEADER + tableBytes.reduce((a, b) => a + b, 0) + 2 * 1024 + 8192 + 2 * WORD_FILTER;
    const lex = this.#allocate(size);
    this.#released.register(owner, { at: lex, size });
    const i32 = this.#i32;
    const u8 = this.#u8;
    let at = lex + BLOCK_HEADER;
    parts.forEach((table, k) => {
      i32[(lex >> 2) + 2 * k] = at;
      i32[(lex >> 2) + 2 * k + 1] = table.hashes.length - 1;
      for (let slot = 0; slot < table.hashes.length; slot++) {
        i32[(at >> 2) + 2 * slot] = table.counts[slot]!;
        i32[(at >> 2) + 2 * slot + 1] = table.hashes[slot]!;
      }
      at += tableBytes[k]!;
    });
    i32[(lex >> 2) + 6] = tables.prefixLengths;
    i32[(lex >> 2) + 7] = at;
    u8.set(tables.prefixFilter, at);
    at += 1024;
    i32[(lex >> 2) + 12] = at;
    u8.set(tables.prefixFilter2, at);
    at += 1024;
    i32[(lex >> 2) + 8] = at;
    u8.fill(0, at, at + 8192);
    for (const unit of tables.anywhereUnits) u8[at + (unit >> 3)]! |= 1 << (unit & 7);
    at += 8192;
    i32[(lex >> 2) + 9] = (tables.hasAnywhere ? 1 : 0) | (tables.hasAnywhereWordStarts ? 2 : 0);
    // Word filters: one bit per hash (bits 15..31) of the exact and pair tables, so that the
    // module rules most words out with one load instead of a table probe.
    [tables.exact, tables.pair].forEach((table, k) => {
      i32[(lex >> 2) + 10 + k] = at;
      u8.fill(0, at, at + WORD_FILTER);
      for (let slot = 0; slot < table.hashes.length; slot++) {
        if (table.counts[slot] === 0) continue;
        const bit = table.hashes[slot]! >>> 15;
        u8[at + (bit >>> 3)]! |= 1 << (bit & 7);
      }
      at += WORD_FILTER;
    });
    return { lex, info };
  }

  /**
   * Scans `text[start, end)`, handing each batch of candidates to `verify(candidates, count)`
   * (pairs of `kind | slot << 3` and position, in text order), and returns the statistics.
   */
  scan(
    text: string,
    start: number,
    end: number,
    lex: number,
    info: number,
    verify: (candidates: Int32Array, count: number) => void,
  ): WasmStats {
    const wasm = this.#exports;
    const i32 = this.#i32;
    wasm.reset();
    i32[STATE.lex >> 2] = lex;
    i32[STATE.out >> 2] = OUT_AT;
    i32[STATE.room >> 2] = CANDIDATE_ROOM;
    for (let chunk = start; chunk < end; ) {
      const count = Math.min(CHUNK_UNITS, end - chunk);
      // Buffer.write copies the string's code units as they are (lone surrogates included).
      const part = chunk === 0 && count === text.length ? text : text.slice(chunk, chunk + count);
      this.#buffer.write(part, TEXT_AT, count * 2, 'utf16le');
      let done = 0;
      while (done < count) {
        i32[STATE.outCount >> 2] = 0;
        i32[STATE.base >> 2] = chunk + done;
        done += wasm.scan(TEXT_AT + done * 2, count - done, info);
        this.#deliver(verify);
      }
      chunk += count;
    }
    i32[STATE.outCount >> 2] = 0;
    wasm.finish();
    this.#deliver(verify);
    return {
      words: i32[STATE.words >> 2]!,
      numbers: i32[STATE.numbers >> 2]!,
      unbounded: i32[STATE.unbounded >> 2]!,
      nonAscii: i32[STATE.nonAscii >> 2]!,
      lines: i32[STATE.lines >> 2]!,
      questions: i32[STATE.questions >> 2]!,
    };
  }

  #deliver(verify: (candidates: Int32Array, count: number) => void): void {
    const count = this.#i32[STATE.outCount >> 2]!;
    if (count > 0) verify(this.#candidates, count);
  }

  /** The info table of a fold table (folded unit | class << 16 per UTF-16 unit), built once. */
  #info(fold: FoldTable, classOf: Uint8Array): number {
    const known = this.#infoTables.get(fold);
    if (known !== undefined) return known;
    const at = this.#allocate(0x10000 * 4);
    this.#released.register(fold, { at, size: 0x10000 * 4 });
    this.#infoTables.set(fold, at);
    const i32 = this.#i32;
    const base = at >> 2;
    for (let c = 0; c < 0x10000; c++) {
      const f = fold[c]!;
      i32[base + c] = f === 0 ? 0 : f | (classOf[f]! << 16);
    }
    return at;
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
    this.#u8 = new Uint8Array(buffer);
    this.#candidates = new Int32Array(buffer, OUT_AT, CANDIDATE_ROOM * 2);
  }
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
