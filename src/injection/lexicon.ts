import { prebuildable, prebuilt } from '../core/prebuilt.js';
import {
  charTables,
  expandAlternatives,
  type Lexicon,
  type LexiconEntryInput,
  SPACE,
} from '../text/index.js';
import { type LexiconTables, lexiconTables, restoreLexicon } from '../text/lexicon.js';
import {
  type PackedLexiconTables,
  packLexiconTables,
  unpackLexiconTables,
} from '../text/lexicon-pack.js';
import {
  CATEGORIES,
  type CategoryInfo,
  type CategoryName,
  type CategoryRole,
  type PairName,
  type PatternRow,
  PROTECTION_BITS,
} from './categories.js';
import type { CustomPattern } from './config.js';
import { injectionFoldTable } from './fold.js';
import { builtInRows } from './patterns/index.js';
import { INJECTION_SOURCES, type SignalKind } from './types.js';

/** Numeric roles, for the per-hit switch of the analyzer. */
export const ROLE_STANDALONE = 0;
export const ROLE_LINE_START = 1;
export const ROLE_VERB = 2;
export const ROLE_TARGET = 3;
export const ROLE_MODIFIER = 4;
export const ROLE_SELF_QUESTION = 5;
export const ROLE_META = 6;
export const ROLE_NOUN = 7;
export const ROLE_SCOPE = 8;

const ROLE_CODES: Record<CategoryRole, number> = {
  standalone: ROLE_STANDALONE,
  line_start: ROLE_LINE_START,
  verb: ROLE_VERB,
  target: ROLE_TARGET,
  modifier: ROLE_MODIFIER,
  self_question: ROLE_SELF_QUESTION,
  meta: ROLE_META,
  noun: ROLE_NOUN,
  scope: ROLE_SCOPE,
};

/** The pairs, by number. */
export const PAIRS: readonly PairName[] = [
  'override',
  'reveal',
  'exfiltrate',
  'secret',
  'personal',
  'frame',
];

/** Groups of standalone entries that combine within a section. */
export const GROUP_PERSONA = 1;
export const GROUP_NO_LIMITS = 2;
export const GROUP_ROLE_HEADER = 3;
export const GROUP_REVERSED = 4;

const GROUPS: Partial<Record<string, number>> = {
  persona: GROUP_PERSONA,
  unrestricted: GROUP_NO_LIMITS,
  jailbreak: GROUP_NO_LIMITS,
  'role.header': GROUP_ROLE_HEADER,
  reversed: GROUP_REVERSED,
};

/**
 * A compiled injection lexicon: categories matched in one pass, with per-entry tables the
 * analyzer reads by entry id instead of by name.
 */
export interface InjectionLexicon {
  readonly lexicon: Lexicon;
  /** Role code of each entry. */
  readonly role: Uint8Array;
  /** Pair number of each verb, target, noun, scope and modifier entry (-1 otherwise). */
  readonly pair: Int8Array;
  /** Signal kind of each entry. */
  readonly kind: readonly SignalKind[];
  /** Weight of each entry, by source (index of `INJECTION_SOURCES`). */
  readonly weight: readonly Float64Array[];
  /** Each phrase as the shared fold table sees it, separators removed (see `walkMatch`). */
  readonly plain: readonly string[];
  /** Whether the entry's phrase ends in `*` (the match extends to the end of the word). */
  readonly openEnd: Uint8Array;
  /** Whether a verb may follow its target. */
  readonly anyOrder: Uint8Array;
  /** The group of a standalone entry ({@link GROUP_PERSONA}, …; 0 for none). */
  readonly group: Uint8Array;
  /** The protection bits of the item an entry is about (`PROTECTION_BITS`; 0 for none). */
  readonly protect: Uint8Array;
  /** The factor of an entry's weight when no system prompt protects its item (1 for none). */
  readonly otherwise: Float64Array;
}

let builtIn: InjectionLexicon | undefined;
let guarded: InjectionLexicon | undefined;
let builtInContext: InjectionLexicon | undefined;

/**
 * Roles of the context lexicon: words that only shape a clause's signals. Kept apart from the
 * rest (which has the words that fire signals and their objects), so that the scans of windows
 * of clauses, which look for triggers only, do not look up words found in every clause of a
 * document (`the`, `for the`, `first`): measured 8% less time per 100 KB of windows. A clause
 * is scanned for them only when a signal can fire in it.
 */
const CONTEXT_ROLES: ReadonlySet<CategoryRole> = new Set([
  'scope',
  'modifier',
  'self_question',
  'meta',
]);

/**
 * The lexicon of the built-in patterns (all languages) but context words and the words that
 * count only against a guarded item, compiled once: what a text without a system prompt (or with
 * one that protects nothing) is scanned with.
 */
export function builtInLexicon(): InjectionLexicon {
  builtIn ??= compileBuiltIn(false, false);
  return builtIn;
}

/**
 * The built-in lexicon with the words that count only against a guarded item ("the code", "is
 * the password…?", a person's details), compiled on the first text sent against a system prompt
 * that protects something. Kept apart because its word tables are larger: measured, the plain
 * lexicon's first-word table fits half the memory and scans a chat message about 2.5 times
 * faster on a machine whose L2 cache it shares.
 */
export function guardedLexicon(): InjectionLexicon {
  guarded ??= compileBuiltIn(false, true);
  return guarded;
}

/** The lexicon of the built-in context words (scopes, modifiers, …), compiled once. */
export function builtInContextLexicon(): InjectionLexicon {
  builtInContext ??= compileBuiltIn(true, true);
  return builtInContext;
}

/**
 * @internal A built-in lexicon: the one the build stored ahead (see `core/prebuilt.ts`), or
 * compiled here when there is none (run from source). Compiling the plain one takes hundreds of
 * milliseconds (thousands of phrases, expanded and indexed), which every process would otherwise
 * pay on its first text. Not cached: see {@link builtInLexicon} and its siblings.
 */
export function compileBuiltIn(context: boolean, withGuarded: boolean): InjectionLexicon {
  const stored = prebuilt<StoredLexicon>(builtInName(context, withGuarded), '');
  return stored ? restore(stored) : compile(builtInCategories(context, withGuarded)).compiled;
}

/** The three built-in lexicons, stored ahead by the build under these names. */
function builtInName(context: boolean, withGuarded: boolean): string {
  return `injection-lexicon-${context ? 'context' : withGuarded ? 'guarded' : 'plain'}`;
}
for (const [context, withGuarded] of [
  [false, false],
  [false, true],
  [true, true],
] as const) {
  prebuildable(builtInName(context, withGuarded), () => {
    const { compiled, tables } = compile(builtInCategories(context, withGuarded));
    const { lexicon: _, ...perEntry } = compiled;
    const stored: StoredLexicon = { ...perEntry, tables: packLexiconTables(tables) };
    return { input: '', value: stored };
  });
}

/** An injection lexicon as the build stores it: the lexicon's tables packed in columns. */
interface StoredLexicon extends Omit<InjectionLexicon, 'lexicon'> {
  readonly tables: PackedLexiconTables;
}

function restore(stored: StoredLexicon): InjectionLexicon {
  const { tables, ...perEntry } = stored;
  const lexicon = restoreLexicon(unpackLexiconTables(tables), { fold: injectionFoldTable() });
  return { lexicon, ...perEntry };
}

function builtInCategories(context: boolean, withGuarded: boolean): CategorySource[] {
  return Object.entries(CATEGORIES)
    .filter(([, info]) => CONTEXT_ROLES.has((info as CategoryInfo).role) === context)
    .filter(([, info]) => withGuarded || (info as CategoryInfo).protects?.otherwise !== 0)
    .map(([name, info]) => ({
      name,
      info: info as CategoryInfo,
      rows: builtInRows(name as CategoryName),
    }));
}

/**
 * The lexicon of a configuration's own patterns, compiled apart from the built-in one so that a
 * detector with custom patterns costs only their compilation. Each is a standalone signal.
 */
export function customLexicon(patterns: readonly CustomPattern[]): InjectionLexicon {
  return compile(
    patterns.map((pattern, index) => ({
      name: `custom.${index}`,
      info: {
        role: 'standalone',
        kind: pattern.kind ?? 'custom',
        sources: Object.fromEntries(
          INJECTION_SOURCES.map((source) => [
            source,
            pattern.sources === undefined || (pattern.sources as readonly string[]).includes(source)
              ? 1
              : 0,
          ]),
        ),
      },
      rows: [[pattern.pattern, pattern.weight]],
    })),
  ).compiled;
}

interface CategorySource {
  readonly name: string;
  readonly info: CategoryInfo;
  readonly rows: readonly PatternRow[];
}

/** Compiles a lexicon; its tables too, for the build to store. */
function compile(categories: readonly CategorySource[]): {
  compiled: InjectionLexicon;
  tables: LexiconTables;
} {
  const spec: Record<string, LexiconEntryInput[]> = {};
  const anyOrderPhrases = new Set<string>();
  for (const { name, rows } of categories) spec[name] = expandRows(name, rows, anyOrderPhrases);
  const fold = injectionFoldTable();
  const tables = lexiconTables(spec, fold);
  const lexicon = restoreLexicon(tables, { fold });
  const count = lexicon.entries.length;
  const role = new Uint8Array(count);
  const pair = new Int8Array(count).fill(-1);
  const kind: SignalKind[] = [];
  const weight = INJECTION_SOURCES.map(() => new Float64Array(count));
  const plain: string[] = [];
  const openEnd = new Uint8Array(count);
  const anyOrder = new Uint8Array(count);
  const group = new Uint8Array(count);
  const protect = new Uint8Array(count);
  const otherwise = new Float64Array(count).fill(1);
  for (const entry of lexicon.entries) {
    const { info } = categories[entry.categoryIndex]!;
    role[entry.id] = ROLE_CODES[info.role];
    if (info.pair) pair[entry.id] = PAIRS.indexOf(info.pair);
    kind.push(info.kind);
    INJECTION_SOURCES.forEach((source, s) => {
      weight[s]![entry.id] = entry.weight * (info.sources?.[source] ?? 1);
    });
    plain.push(plainForm(entry.phrase));
    openEnd[entry.id] = entry.phrase.trim().endsWith('*') ? 1 : 0;
    anyOrder[entry.id] = anyOrderPhrases.has(`${entry.category}\u0000${entry.phrase}`) ? 1 : 0;
    group[entry.id] = GROUPS[entry.category] ?? 0;
    if (info.protects) {
      protect[entry.id] = PROTECTION_BITS[info.protects.what];
      otherwise[entry.id] = info.protects.otherwise;
    }
  }
  const compiled = {
    lexicon,
    role,
    pair,
    kind,
    weight,
    plain,
    openEnd,
    anyOrder,
    group,
    protect,
    otherwise,
  };
  return { compiled, tables };
}

/** Expands rows into lexicon entries, keeping the highest weight of a phrase listed twice. */
function expandRows(
  category: string,
  rows: readonly PatternRow[],
  anyOrderPhrases: Set<string>,
): LexiconEntryInput[] {
  const best = new Map<string, number>();
  for (const [pattern, weight, flag] of rows) {
    const phrases = flag === 'literal' ? [pattern] : expandAlternatives(pattern);
    for (const phrase of phrases) {
      if (flag === 'any-order') anyOrderPhrases.add(`${category}\u0000${phrase}`);
      const known = best.get(phrase);
      // A weight of 0 (a negated verb) wins: "don't forget" must always cancel "forget".
      if (known === undefined || weight === 0 || (known !== 0 && weight > known)) {
        best.set(phrase, weight);
      }
    }
  }
  return [...best].map(([phrase, weight]) => ({ phrase, weight }));
}

/**
 * A phrase as the shared fold table sees it, without white space, hyphens (which match white
 * space) or `*` marks: what a plain, unobfuscated match of it reads.
 */
function plainForm(phrase: string): string {
  const { fold, classOf } = charTables();
  const space: number = SPACE;
  let out = '';
  const text = phrase.trim().replace(/^\*|\*$/g, '');
  for (let i = 0; i < text.length; i++) {
    const f = fold[text.charCodeAt(i)]!;
    if (f !== 0 && f !== 0x2d && classOf[f] !== space) out += String.fromCharCode(f);
  }
  return out;
}
