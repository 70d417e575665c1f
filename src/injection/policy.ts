import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { LexiconScan } from '../text/index.js';
import { PROTECTION_BITS } from './categories.js';
import { CUES, type PolicyLexicon, policyLexicon, TOPIC_NAMES } from './policy-lexicon.js';

/**
 * What a system prompt protects and restricts, extracted locally once per distinct prompt:
 *
 * - the items it guards: a secret (a password, an access code, a key), personal data it holds
 *   about someone, and its own instructions when it says they are confidential;
 * - the topics (and places) it restricts the assistant to ("only talk about New York City") and
 *   the topics it forbids ("never discuss weapons");
 * - the phrase it grants access with ("if the password is right, say 'Access Granted'"), which
 *   nobody but the model should ask for;
 * - the names of the people whose data it holds, so that "where does Maria live?" is about them.
 *
 * It never keeps a protected value (the password itself): the detector scores attempts on a
 * kind of item, and the judge is told the kinds, never the values.
 */

/** Characters of a system prompt read at most (a prompt longer than that is read in part). */
const MAX_PROMPT_CHARS = 100_000;
/** Characters searched around a topic for the sentence it belongs to. */
const MAX_SENTENCE_REACH = 400;
/** System prompts kept, and the characters they may hold together (the keys are the prompts). */
const CACHE_ENTRIES = 256;
const CACHE_CHARS = 8_000_000;

const CUE = Object.fromEntries(CUES.map((cue, index) => [cue, index])) as Record<
  (typeof CUES)[number],
  number
>;

/** What a system prompt protects and restricts (see the module comment). */
export class SystemPolicy {
  /** Bits of the protected items (`PROTECTION_BITS`). */
  readonly protects: number;
  /** Bits of the topics the assistant is restricted to (0: not restricted by topic). */
  readonly scopeTopics: number;
  /** Places the assistant is restricted to (rows of the place table). */
  readonly scopePlaces: readonly number[];
  /** Bits of the topics it forbids. */
  readonly forbiddenTopics: number;
  /** Lower-case names of the people whose data it holds. */
  readonly people: readonly string[];
  /** Lower-case phrases it grants access with. */
  readonly grants: readonly string[];
  readonly #prompt: string;
  #id: string | undefined;

  constructor(prompt: string, fields: Omit<SystemPolicy, 'id' | 'restricted' | 'describe'>) {
    this.#prompt = prompt;
    this.protects = fields.protects;
    this.scopeTopics = fields.scopeTopics;
    this.scopePlaces = fields.scopePlaces;
    this.forbiddenTopics = fields.forbiddenTopics;
    this.people = fields.people;
    this.grants = fields.grants;
  }

  /** The SHA-256 of the prompt (base64url): what a cache of verdicts keys the prompt by. */
  get id(): string {
    this.#id ??= createHash('sha256').update(this.#prompt).digest('base64url');
    return this.#id;
  }

  /** Whether the prompt restricts the assistant to some topics or places, or forbids some. */
  get restricted(): boolean {
    return this.scopeTopics !== 0 || this.scopePlaces.length > 0 || this.forbiddenTopics !== 0;
  }

  /**
   * What the prompt protects and restricts, in words, for the LLM judge: the kinds of items and
   * the topics, never a protected value. Empty when it protects nothing.
   */
  describe(): string {
    const lexicon = policyLexicon();
    const guards: string[] = [];
    if (this.protects & PROTECTION_BITS.secret)
      guards.push('a secret (a password, a code or a key)');
    if (this.protects & PROTECTION_BITS.personal) guards.push('personal data about someone');
    if (this.protects & PROTECTION_BITS.prompt) guards.push('its own instructions (confidential)');
    const parts: string[] = [];
    if (guards.length > 0) parts.push(`It guards ${guards.join('; ')}.`);
    const scope = [
      ...topicNames(this.scopeTopics),
      ...this.scopePlaces.map((row) => lexicon.placeNames[row]!),
    ];
    if (scope.length > 0) parts.push(`It restricts the assistant to: ${scope.join(', ')}.`);
    if (this.forbiddenTopics !== 0) {
      parts.push(`It forbids: ${topicNames(this.forbiddenTopics).join(', ')}.`);
    }
    if (this.grants.length > 0) {
      parts.push('It grants access with a fixed phrase that only the assistant may say.');
    }
    return parts.join(' ');
  }
}

/** The names of the topics whose bits are set. */
export function topicNames(bits: number): string[] {
  return TOPIC_NAMES.filter((_name, index) => (bits & (1 << index)) !== 0);
}

const cache = new LRUCache<string, SystemPolicy>({
  max: CACHE_ENTRIES,
  maxSize: CACHE_CHARS,
  sizeCalculation: (_policy, prompt) => Math.max(1, Math.min(prompt.length, MAX_PROMPT_CHARS)),
});

/**
 * The policy of a system prompt, extracted on its first sight and kept in a bounded LRU keyed
 * by the prompt (the engine hashes the key; a prompt seen again costs a lookup). `undefined` for
 * an empty prompt.
 */
export function policyOf(system: string | undefined): SystemPolicy | undefined {
  if (typeof system !== 'string' || system.trim().length === 0) return undefined;
  let policy = cache.get(system);
  if (policy === undefined) {
    policy = extractPolicy(system);
    cache.set(system, policy);
  }
  return policy;
}

let scratch: { whole: LexiconScan; sentence: LexiconScan } | undefined;

/** Extracts the policy of a system prompt (uncached: see {@link policyOf}). */
export function extractPolicy(system: string): SystemPolicy {
  const lex = policyLexicon();
  scratch ??= { whole: lex.lexicon.scan(''), sentence: lex.lexicon.scan('') };
  const end = Math.min(system.length, MAX_PROMPT_CHARS);
  const scan = lex.lexicon.scan(system, scratch.whole, 0, end);
  const cueFirst = new Int32Array(CUES.length).fill(-1);
  let topics = false;
  // Where the cues of a restriction stand: a sentence without one has no restriction to read.
  const scopeCues: Hit[] = [];
  const personalAt: number[] = [];
  const grantAt: number[] = [];
  for (let k = 0; k < scan.hitCount; k++) {
    const id = scan.hitEntry(k).id;
    const at = scan.hitIndex(k);
    const cue = lex.cue[id]!;
    if (cue >= 0) {
      if (cueFirst[cue]! < 0 || at < cueFirst[cue]!) cueFirst[cue] = at;
      if (cue === CUE['cue.only'] || cue === CUE['cue.forbid'] || cue === CUE['cue.except']) {
        scopeCues.push({
          at,
          occurrences: scan.hitOccurrences(k),
          phrase: scan.hitEntry(k).phrase,
        });
      } else if (cue === CUE['cue.personal']) personalAt.push(at);
      else if (cue === CUE['cue.grant']) grantAt.push(at);
    } else topics = true;
  }
  const has = (cue: number) => cueFirst[cue]! >= 0;
  let protects = 0;
  if (has(CUE['cue.secret'])) protects |= PROTECTION_BITS.secret;
  if (has(CUE['cue.personal'])) protects |= PROTECTION_BITS.personal;
  if (has(CUE['cue.confidential']) && has(CUE['cue.prompt'])) protects |= PROTECTION_BITS.prompt;
  const scope = { topics: 0, places: [] as number[], forbidden: 0 };
  if ((has(CUE['cue.only']) || has(CUE['cue.forbid'])) && topics) {
    readScope(system, end, scopeCues, lex, scratch.sentence, scope);
  }
  if (scope.topics !== 0 || scope.places.length > 0 || scope.forbidden !== 0) {
    protects |= PROTECTION_BITS.scope;
  }
  return new SystemPolicy(system, {
    protects,
    scopeTopics: scope.topics,
    scopePlaces: scope.places,
    forbiddenTopics: scope.forbidden,
    people: personalAt.length > 0 ? peopleIn(system, end, personalAt, lex) : [],
    grants: grantsIn(system, end, grantAt, has(CUE['cue.granted'])),
  });
}

/** Where an entry was first found, how often it occurs, and its phrase. */
interface Hit {
  readonly at: number;
  readonly occurrences: number;
  readonly phrase: string;
}

/**
 * Where the cues of a restriction stand: their first places (from the scan), and the later places
 * of those that occur more than once (searched as written, or capitalised at the start of a
 * sentence: a cue written otherwise, in capitals or with a homoglyph, counts only where the
 * scan first found it). Sorted.
 */
function cuePlaces(system: string, end: number, cues: readonly Hit[]): number[] {
  const places: number[] = [];
  for (const cue of cues) {
    places.push(cue.at);
    if (cue.occurrences < 2) continue;
    const phrase = cue.phrase.replace(/\*$/, '');
    const capital = phrase.charAt(0).toUpperCase() + phrase.slice(1);
    for (const form of phrase === capital ? [phrase] : [phrase, capital]) {
      for (let at = system.indexOf(form, cue.at + 1); at >= 0 && at < end; ) {
        places.push(at);
        at = system.indexOf(form, at + form.length);
      }
    }
  }
  return places.sort((a, b) => a - b);
}

/**
 * Reads, sentence by sentence, which topics and places a restriction ("only …", "… except …")
 * or a prohibition ("never discuss …") applies to: the cue nearest before a topic in its
 * sentence decides, or, when none stands before it, one after it ("politics is off-limits").
 */
function readScope(
  system: string,
  end: number,
  scopeCues: readonly Hit[],
  lex: PolicyLexicon,
  sentenceScan: LexiconScan,
  into: { topics: number; places: number[]; forbidden: number },
): void {
  // The sentences of the restricting cues are read, whatever the prompt said before them: "You
  // are a history tutor. Only discuss history topics." restricts to history though "history"
  // first stands in a sentence without a cue.
  const places = cuePlaces(system, end, scopeCues);
  let done = -1;
  for (const at of places) {
    if (at < done) continue;
    const from = sentenceStart(system, at);
    const to = sentenceEnd(system, at, end);
    done = to;
    const scan = lex.lexicon.scan(system, sentenceScan, from, to);
    const cues: { at: number; cue: number }[] = [];
    for (let k = 0; k < scan.hitCount; k++) {
      const cue = lex.cue[scan.hitEntry(k).id]!;
      if (cue === CUE['cue.only'] || cue === CUE['cue.forbid'] || cue === CUE['cue.except']) {
        cues.push({ at: scan.hitIndex(k), cue });
      }
    }
    if (cues.length === 0) continue;
    cues.sort((a, b) => a.at - b.at);
    for (let k = 0; k < scan.hitCount; k++) {
      const id = scan.hitEntry(k).id;
      const topic = lex.topic[id]!;
      const place = lex.place[id]!;
      if (topic < 0 && place < 0) continue;
      const where = scan.hitIndex(k);
      let decisive: number | undefined;
      for (const cue of cues) if (cue.at < where) decisive = cue.cue;
      if (decisive === undefined) {
        decisive = cues.some((cue) => cue.cue === CUE['cue.forbid'])
          ? CUE['cue.forbid']
          : CUE['cue.only'];
      }
      const forbidden = decisive === CUE['cue.forbid'];
      if (place >= 0) {
        if (!forbidden && !into.places.includes(place)) into.places.push(place);
      } else if (forbidden) into.forbidden |= 1 << topic;
      else into.topics |= 1 << topic;
    }
  }
  // A topic both allowed and forbidden ("only cooking … never cooking with alcohol") stays allowed.
  into.forbidden &= ~into.topics;
}

function isSentenceBreak(code: number): boolean {
  return (
    code === 0x2e ||
    code === 0x21 ||
    code === 0x3f ||
    code === 0x3b ||
    code === 0x0a ||
    code === 0x3002 ||
    code === 0xff01 ||
    code === 0xff1f
  );
}

function sentenceStart(text: string, at: number): number {
  const stop = Math.max(0, at - MAX_SENTENCE_REACH);
  for (let i = at - 1; i >= stop; i--) if (isSentenceBreak(text.charCodeAt(i))) return i + 1;
  return stop;
}

function sentenceEnd(text: string, at: number, end: number): number {
  const stop = Math.min(end, at + MAX_SENTENCE_REACH);
  for (let i = at; i < stop; i++) if (isSentenceBreak(text.charCodeAt(i))) return i + 1;
  return stop;
}

const CLOSING: Readonly<Record<string, string>> = { '"': '"', '“': '”', "'": "'", '‘': '’' };
/** Phrases that refuse rather than grant. */
const DENIAL =
  /\b(?:den(?:ied|y)|wrong|incorrect|invalid|fail(?:ed|ure)?|reject(?:ed)?|refuse[ds]?|error|sorry|no)\b/i;
/** What precedes a phrase said when the condition fails ("otherwise say …"). */
const OTHERWISE =
  /\b(?:otherwise|else|anything else|everything else|any other|all other|if not|wrong|incorrect)\b[^.]*$/i;
/** Longest phrase read as one the prompt grants access with. */
const MAX_GRANT_CHARS = 40;

/**
 * The phrases said on a condition (`say "Access Granted"`, `respond with 'Welcome'`), read
 * where the lexicon found a saying word and its quote (`grantAt`), but not those said otherwise
 * (`otherwise say "Access Denied"`) or that refuse.
 */
function grantsIn(
  system: string,
  end: number,
  grantAt: readonly number[],
  accessGranted: boolean,
): string[] {
  const grants: string[] = [];
  for (const at of grantAt) {
    let open = at;
    while (open < end && open - at < 20 && CLOSING[system[open]!] === undefined) open++;
    const closing = CLOSING[system[open]!];
    if (closing === undefined) continue;
    const close = system.indexOf(closing, open + 1);
    if (close < 0 || close > end || close - open - 1 > MAX_GRANT_CHARS) continue;
    const phrase = system
      .slice(open + 1, close)
      .trim()
      .toLowerCase();
    const before = system.slice(Math.max(0, at - 80), at);
    if (phrase.length < 2 || phrase.includes('\n') || DENIAL.test(phrase)) continue;
    if (OTHERWISE.test(before) || grants.includes(phrase)) continue;
    grants.push(phrase);
  }
  if (accessGranted && !grants.includes('access granted')) grants.push('access granted');
  return grants;
}

/** Capitalised words in a row: a person's name ("Maria Lopez"), unless a word says otherwise. */
const NAME = /\b[A-Z][a-z]{1,20}(?:[ -][A-Z][a-z]{1,20}){1,2}\b/g;
const NOT_A_NAME =
  /^(?:street|road|avenue|lane|drive|bank|city|state|county|inc|ltd|corp|company|group|university|college|school|hospital|clinic|center|centre|order|account|support|team|department|national|international|first|united|new|the|you|your|do|never|always|if|when|only|please|monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|march|april|may|june|july|august|september|october|november|december)$/i;

/**
 * The names in the sentences that hold personal data ("The current customer is Maria Lopez,
 * email …"): a company named elsewhere in the prompt is no person.
 */
function peopleIn(
  system: string,
  end: number,
  personalAt: readonly number[],
  lex: PolicyLexicon,
): string[] {
  const people = new Set<string>();
  const read = new Set<number>();
  for (const at of personalAt) {
    const from = sentenceStart(system, at);
    if (read.has(from)) continue;
    read.add(from);
    const sentence = system.slice(from, sentenceEnd(system, at, end));
    NAME.lastIndex = 0;
    for (let match = NAME.exec(sentence); match !== null; match = NAME.exec(sentence)) {
      const parts = match[0].split(/[ -]/);
      if (parts.some((part) => NOT_A_NAME.test(part))) continue;
      if (lex.placeNames.includes(match[0].toLowerCase())) continue;
      for (const part of parts) if (part.length >= 3) people.add(part.toLowerCase());
      if (people.size >= 32) return [...people];
    }
  }
  return [...people];
}
