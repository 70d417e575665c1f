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
  const topicsAt: number[] = [];
  for (let k = 0; k < scan.hitCount; k++) {
    const id = scan.hitEntry(k).id;
    const at = scan.hitIndex(k);
    const cue = lex.cue[id]!;
    if (cue >= 0) {
      if (cueFirst[cue]! < 0 || at < cueFirst[cue]!) cueFirst[cue] = at;
    } else topicsAt.push(at);
  }
  const has = (cue: number) => cueFirst[cue]! >= 0;
  let protects = 0;
  if (has(CUE['cue.secret'])) protects |= PROTECTION_BITS.secret;
  if (has(CUE['cue.personal'])) protects |= PROTECTION_BITS.personal;
  if (has(CUE['cue.confidential']) && has(CUE['cue.prompt'])) protects |= PROTECTION_BITS.prompt;
  const scope = { topics: 0, places: [] as number[], forbidden: 0 };
  if ((has(CUE['cue.only']) || has(CUE['cue.forbid'])) && topicsAt.length > 0) {
    readScope(system, end, topicsAt, lex, scratch.sentence, scope);
  }
  if (scope.topics !== 0 || scope.places.length > 0 || scope.forbidden !== 0) {
    protects |= PROTECTION_BITS.scope;
  }
  return new SystemPolicy(system, {
    protects,
    scopeTopics: scope.topics,
    scopePlaces: scope.places,
    forbiddenTopics: scope.forbidden,
    people: protects & PROTECTION_BITS.personal ? peopleIn(system, end, lex) : [],
    grants: has(CUE['cue.grant']) ? grantsIn(system, end, cueFirst[CUE['cue.grant']]!) : [],
  });
}

/**
 * Reads, sentence by sentence, which topics and places a restriction ("only …", "… except …")
 * or a prohibition ("never discuss …") applies to: the cue nearest before a topic in its
 * sentence decides, or, when none stands before it, one after it ("politics is off-limits").
 */
function readScope(
  system: string,
  end: number,
  topicsAt: number[],
  lex: PolicyLexicon,
  sentenceScan: LexiconScan,
  into: { topics: number; places: number[]; forbidden: number },
): void {
  topicsAt.sort((a, b) => a - b);
  let done = -1;
  for (const at of topicsAt) {
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

/**
 * The phrases said on a condition (`say "Access Granted"`, `respond with 'Welcome'`), but not
 * those said otherwise (`otherwise say "Access Denied"`) or that refuse.
 */
const GRANT =
  /\b(?:say|says|respond with|reply with|answer with|output|print|return)\s*:?\s*["'“‘]([^"'”’\n]{2,40})["'”’]/gi;
const DENIAL =
  /\b(?:den(?:ied|y)|wrong|incorrect|invalid|fail(?:ed|ure)?|reject(?:ed)?|refuse[ds]?|error|sorry|no)\b/i;
const OTHERWISE =
  /\b(?:otherwise|else|anything else|everything else|any other|all other|if not|wrong|incorrect)\b[^.]*$/i;

function grantsIn(system: string, end: number, from: number): string[] {
  const grants: string[] = [];
  GRANT.lastIndex = Math.max(0, from);
  const text = end < system.length ? system.slice(0, end) : system;
  for (let match = GRANT.exec(text); match !== null; match = GRANT.exec(text)) {
    const phrase = match[1]!.trim().toLowerCase();
    const before = text.slice(Math.max(0, match.index - 60), match.index);
    if (DENIAL.test(phrase) || OTHERWISE.test(before) || grants.includes(phrase)) continue;
    grants.push(phrase);
    if (grants.length >= 4) break;
  }
  if (grants.length === 0 && /access granted/i.test(text)) grants.push('access granted');
  return grants;
}

/** Capitalised words in a row: a person's name ("Maria Lopez"), unless a word says otherwise. */
const NAME = /\b[A-Z][a-z]{1,20}(?:[ -][A-Z][a-z]{1,20}){1,2}\b/g;
const NOT_A_NAME =
  /^(?:street|road|avenue|lane|drive|bank|city|state|county|inc|ltd|corp|company|group|university|college|school|hospital|clinic|center|centre|order|account|support|team|department|national|international|first|united|new|the|you|your|do|never|always|if|when|only|please|monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|march|april|may|june|july|august|september|october|november|december)$/i;

function peopleIn(system: string, end: number, lex: PolicyLexicon): string[] {
  const people = new Set<string>();
  const text = end < system.length ? system.slice(0, end) : system;
  NAME.lastIndex = 0;
  for (let match = NAME.exec(text); match !== null; match = NAME.exec(text)) {
    const parts = match[0].split(/[ -]/);
    if (parts.some((part) => NOT_A_NAME.test(part))) continue;
    if (lex.placeNames.includes(match[0].toLowerCase())) continue;
    for (const part of parts) if (part.length >= 3) people.add(part.toLowerCase());
    if (people.size >= 32) break;
  }
  return [...people];
}
