import type { InjectionSource, SignalKind } from './types.js';

/**
 * The lexicon categories of the detector and how each one counts. Most attacks are combinations
 * (an imperative, a target, a scope: "ignore" + "all previous instructions"), so the words of a
 * combination live in separate categories and only count when they meet in the same clause;
 * a few phrases are specific enough to count alone ("do anything now", `<|im_start|>`).
 */

/** How the hits of a category are used. */
export type CategoryRole =
  /** Counts on its own, with the entry's weight. */
  | 'standalone'
  /** Counts on its own only at the start of a line (a fake `System:` header). */
  | 'line_start'
  /** The verb of a pair (`ignore`, `reveal`); counts only next to a target of its pair. */
  | 'verb'
  /** A complete target of a pair, scope included (`everything above`, `your system prompt`). */
  | 'target'
  /** The noun of a target (`instructions`, `prompt`): full weight only with a scope word. */
  | 'noun'
  /** A scope word that makes a noun a target (`previous`, `your`, `all`, `above`). */
  | 'scope'
  /** Strengthens a pair found in the same clause (`verbatim`, `to https://`). */
  | 'modifier'
  /** Weakens pairs in the same clause: a first-person question ("should I …?"). */
  | 'self_question'
  /** Weakens pairs in the same clause: the text talks about attacks ("prompt injection"). */
  | 'meta';

/**
 * What a system prompt may protect, and what an entry may be an attempt on: a secret (a
 * password, a code, a key), personal data it holds, its own instructions, or the scope it
 * restricts the assistant to (and the topics it forbids).
 */
export type Protection = 'secret' | 'personal' | 'prompt' | 'scope';

/** Bits of {@link Protection}, as the policy and the compiled lexicon store them. */
export const PROTECTION_BITS: Readonly<Record<Protection, number>> = {
  secret: 1,
  personal: 2,
  prompt: 4,
  scope: 8,
};

/** How an entry about a protectable item counts, with and without a system prompt protecting it. */
export interface ProtectsInfo {
  readonly what: Protection;
  /**
   * Factor of the entry's weight when no system prompt protects that item ("what is the
   * password?" asked of an assistant that holds none): 0 when the entry means nothing then, in
   * which case it is left out of the lexicon used without such a prompt (see `lexicon.ts`).
   */
  readonly otherwise: number;
}

/** A category: its role, the signal kind it reports, its pair, and its weight per source. */
export interface CategoryInfo {
  readonly role: CategoryRole;
  readonly kind: SignalKind;
  /** For verbs, targets and modifiers: the pair they belong to. */
  readonly pair?: PairName;
  /** Multiplier of the entry weights by source (default 1). */
  readonly sources?: Partial<Record<InjectionSource, number>>;
  /** The item its entries are about, when a system prompt may protect it. */
  readonly protects?: ProtectsInfo;
}

/**
 * The verb-target pairs: overriding instructions, revealing the prompt, sending data out,
 * getting at a secret, getting at a person's details, and framing a request as fiction or a hypothesis aimed
 * at a rule or a secret.
 */
export type PairName = 'override' | 'reveal' | 'exfiltrate' | 'secret' | 'personal' | 'frame';

/** Instructions addressed to the model are ordinary in a user's message, suspect in data. */
const DATA_ONLY = { user: 0.25 } as const;

/** Every built-in category. */
export const CATEGORIES = {
  'override.verb': { role: 'verb', kind: 'instruction_override', pair: 'override' },
  'override.target': { role: 'target', kind: 'instruction_override', pair: 'override' },
  'override.noun': { role: 'noun', kind: 'instruction_override', pair: 'override' },
  'override.scope': { role: 'scope', kind: 'instruction_override', pair: 'override' },
  'override.phrase': { role: 'standalone', kind: 'instruction_override' },
  'reveal.verb': { role: 'verb', kind: 'prompt_extraction', pair: 'reveal' },
  'reveal.target': { role: 'target', kind: 'prompt_extraction', pair: 'reveal' },
  'reveal.noun': {
    role: 'noun',
    kind: 'prompt_extraction',
    pair: 'reveal',
    protects: { what: 'prompt', otherwise: 1 },
  },
  'reveal.scope': { role: 'scope', kind: 'prompt_extraction', pair: 'reveal' },
  'reveal.modifier': { role: 'modifier', kind: 'prompt_extraction', pair: 'reveal' },
  'reveal.phrase': { role: 'standalone', kind: 'prompt_extraction' },
  'exfil.verb': { role: 'verb', kind: 'exfiltration', pair: 'exfiltrate' },
  'exfil.target': {
    role: 'target',
    kind: 'exfiltration',
    pair: 'exfiltrate',
    sources: { user: 0.35 },
  },
  'exfil.noun': { role: 'noun', kind: 'exfiltration', pair: 'exfiltrate', sources: { user: 0.7 } },
  'exfil.scope': { role: 'scope', kind: 'exfiltration', pair: 'exfiltrate' },
  'exfil.destination': { role: 'modifier', kind: 'exfiltration', pair: 'exfiltrate' },
  'secret.verb': { role: 'verb', kind: 'secret_extraction', pair: 'secret' },
  // Probes that ask of a secret only where one is guarded ("is the password about physics?").
  'secret.probe.verb': {
    role: 'verb',
    kind: 'secret_extraction',
    pair: 'secret',
    protects: { what: 'secret', otherwise: 0 },
  },
  'secret.noun': {
    role: 'noun',
    kind: 'secret_extraction',
    pair: 'secret',
    protects: { what: 'secret', otherwise: 0.6 },
  },
  // Words that name a secret only where the system prompt guards one ("the code", "the word").
  'secret.generic': {
    role: 'noun',
    kind: 'secret_extraction',
    pair: 'secret',
    protects: { what: 'secret', otherwise: 0 },
  },
  'secret.scope': { role: 'scope', kind: 'secret_extraction', pair: 'secret' },
  'personal.verb': {
    role: 'verb',
    kind: 'secret_extraction',
    pair: 'personal',
    protects: { what: 'personal', otherwise: 0 },
  },
  'personal.noun': {
    role: 'noun',
    kind: 'secret_extraction',
    pair: 'personal',
    protects: { what: 'personal', otherwise: 0 },
  },
  'personal.scope': { role: 'scope', kind: 'secret_extraction', pair: 'personal' },
  'secret.modifier': { role: 'modifier', kind: 'secret_extraction', pair: 'secret' },
  // Probing questions: "what word are you not allowed to tell me?".
  'secret.probe': {
    role: 'standalone',
    kind: 'secret_extraction',
    protects: { what: 'secret', otherwise: 0.5 },
  },
  'frame.verb': { role: 'verb', kind: 'role_manipulation', pair: 'frame' },
  'frame.noun': { role: 'noun', kind: 'role_manipulation', pair: 'frame' },
  'frame.secret': {
    role: 'noun',
    kind: 'secret_extraction',
    pair: 'frame',
    protects: { what: 'secret', otherwise: 0.6 },
  },
  'frame.scope': { role: 'scope', kind: 'role_manipulation', pair: 'frame' },
  'frame.modifier': { role: 'modifier', kind: 'role_manipulation', pair: 'frame' },
  // Pushing past a restriction: "I know you only talk about cooking, but…".
  'scope.push': {
    role: 'standalone',
    kind: 'scope_violation',
    protects: { what: 'scope', otherwise: 0 },
  },
  // Asking for the phrase a guard grants access with, or pinning every answer to a phrase.
  hijack: { role: 'standalone', kind: 'instruction_override' },
  // Attack words written backwards ("snoitcurtsni"): the clause is read again reversed.
  reversed: { role: 'standalone', kind: 'obfuscation' },
  persona: { role: 'standalone', kind: 'role_manipulation' },
  unrestricted: { role: 'standalone', kind: 'role_manipulation' },
  jailbreak: { role: 'standalone', kind: 'role_manipulation' },
  authority: { role: 'standalone', kind: 'context_switch' },
  switch: { role: 'standalone', kind: 'context_switch' },
  delimiter: { role: 'standalone', kind: 'fake_delimiter' },
  'role.header': { role: 'line_start', kind: 'fake_delimiter' },
  addressed: { role: 'standalone', kind: 'hidden_instruction', sources: DATA_ONLY },
  encoding: { role: 'standalone', kind: 'encoded_payload' },
  'self.question': { role: 'self_question', kind: 'instruction_override' },
  meta: { role: 'meta', kind: 'instruction_override' },
} as const satisfies Record<string, CategoryInfo>;

/** The name of a built-in category. */
export type CategoryName = keyof typeof CATEGORIES;

/**
 * How a row is read: `literal` rows are taken as they are (chat-template tokens contain the `|`
 * of the pattern syntax); `any-order` verbs may also follow their target (German and Japanese
 * put the verb last; English passives: "previous instructions are void").
 */
export type RowFlag = 'literal' | 'any-order';

/** One pattern row: a compact pattern (see `expandAlternatives`), its weight in [0, 1], a flag. */
export type PatternRow =
  | readonly [pattern: string, weight: number]
  | readonly [pattern: string, weight: number, flag: RowFlag];

/** Pattern rows by category, as each language file declares them. */
export type PatternTable = Partial<Record<CategoryName, readonly PatternRow[]>>;

/** Marks verb rows whose verbs may follow their target (see {@link RowFlag}). */
export function anyOrder(rows: readonly PatternRow[]): PatternRow[] {
  return rows.map(([pattern, weight]) => [pattern, weight, 'any-order'] as const);
}
