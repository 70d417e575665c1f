import type { LexiconScan } from '../text/index.js';
import type { SystemPolicy } from './policy.js';
import { type PolicyLexicon, policyLexicon, TOPIC_NAMES } from './policy-lexicon.js';

/**
 * Signals that exist only against a system prompt's policy, read from the whole text: asking for
 * the phrase the prompt grants access with, a request about a topic the prompt forbids, and a
 * request outside the topics (or the place) it restricts the assistant to.
 */

/** Characters of a text checked against a policy (a request states its topic early). */
const MAX_CHECKED = 4000;
/** Weight of a request for the phrase the prompt grants access with. */
const GRANT_WEIGHT = 0.85;
/** Weight of a request that holds the beginning of that phrase, to be completed. */
const PARTIAL_GRANT_WEIGHT = 0.7;
/** Weight of a request about a forbidden topic. */
const FORBIDDEN_WEIGHT = 0.6;
/** Weight of a request outside the prompt's scope. */
const OFF_SCOPE_WEIGHT = 0.55;
/** Weight of dismissing the allowed topic ("forget recipes, …"). */
const DISMISS_WEIGHT = 0.45;

/** One signal found against the policy. */
export interface PolicySignal {
  readonly kind: 'instruction_override' | 'scope_violation';
  readonly label: string;
  readonly start: number;
  readonly end: number;
  readonly weight: number;
}

/** Checks texts against policies, reusing its scan. */
export class PolicyCheck {
  #scan: LexiconScan | undefined;

  /** The signals of `text[start, end)` against `policy`, added to `into`. */
  check(
    text: string,
    start: number,
    end: number,
    policy: SystemPolicy,
    into: PolicySignal[],
  ): void {
    const stop = Math.min(end, start + MAX_CHECKED);
    if (policy.grants.length > 0) grantRequests(text, start, stop, policy, into);
    if (policy.restricted) this.#scope(text, start, stop, policy, into);
  }

  /**
   * What the text is about against what the prompt allows and forbids: a request about a
   * forbidden topic unless it is mostly about allowed ones ("the history of beer" to a history
   * tutor that must not discuss alcohol); a request mostly about topics outside the allowed
   * ones; a place the allowed place cannot hold (another city than the one a concierge keeps
   * to, another country than the one a travel guide covers); and dismissing the allowed topic
   * ("forget recipes, who won the game?").
   */
  #scope(text: string, start: number, end: number, policy: SystemPolicy, into: PolicySignal[]) {
    const lex = policyLexicon();
    this.#scan ??= lex.lexicon.scan('');
    const scan = lex.lexicon.scan(text, this.#scan, start, end);
    const placeScoped = policy.scopePlaces.length > 0;
    const inside = policy.scopeTopics | (placeScoped ? lex.localTopics : 0);
    const topicScoped = policy.scopeTopics !== 0 || placeScoped;
    let within = 0;
    let outside = 0;
    let forbidden = 0;
    let firstOutside = -1;
    let firstForbidden = -1;
    for (let k = 0; k < scan.hitCount; k++) {
      const id = scan.hitEntry(k).id;
      const topic = lex.topic[id]!;
      const place = lex.place[id]!;
      if (topic < 0 && place < 0) continue;
      const occurrences = scan.hitOccurrences(k);
      if (topic >= 0 && (policy.forbiddenTopics & (1 << topic)) !== 0) {
        forbidden += occurrences;
        if (firstForbidden < 0) firstForbidden = k;
        continue;
      }
      if (!topicScoped) continue;
      if (place >= 0) {
        if (!placeScoped) {
          outside += occurrences;
          if (firstOutside < 0) firstOutside = k;
        } else if (policy.scopePlaces.includes(place)) within += occurrences;
        else if (outsidePlace(lex, policy.scopePlaces, place)) {
          into.push(
            hitSignal(lex, scan, k, `outside scope: ${lex.placeNames[place]}`, OFF_SCOPE_WEIGHT),
          );
        }
      } else if ((inside & (1 << topic)) === 0) {
        outside += occurrences;
        if (firstOutside < 0) firstOutside = k;
      } else if (dismissed(text, start, scan.hitIndex(k))) {
        into.push(hitSignal(lex, scan, k, 'dismisses its scope', DISMISS_WEIGHT));
        outside += occurrences;
      } else within += occurrences;
    }
    if (firstForbidden >= 0 && forbidden >= within) {
      const topic = lex.topic[scan.hitEntry(firstForbidden).id]!;
      into.push(
        hitSignal(
          lex,
          scan,
          firstForbidden,
          `forbidden topic: ${TOPIC_NAMES[topic]}`,
          FORBIDDEN_WEIGHT,
        ),
      );
    }
    if (outside > within && firstOutside >= 0) {
      const id = scan.hitEntry(firstOutside).id;
      into.push(
        hitSignal(lex, scan, firstOutside, `outside scope: ${describe(lex, id)}`, OFF_SCOPE_WEIGHT),
      );
    }
  }
}

/**
 * Whether `place` cannot lie in any of the allowed places: it is not smaller than any of them
 * (a city may lie in an allowed country, another country may not).
 */
function outsidePlace(lex: PolicyLexicon, allowed: readonly number[], place: number): boolean {
  const level = lex.placeLevel[place]!;
  return allowed.every((scope) => level >= lex.placeLevel[scope]!);
}

/** Words that dismiss the allowed topic that follows them ("forget recipes", "enough about …"). */
const DISMISSING =
  /\b(?:forget|forget about|ignore|never ?mind|enough(?: about)?|instead of|no more|stop talking about|skip|leave|aside from|besides)\W{0,3}$/i;

/** Whether the words just before `at` dismiss what stands there. */
function dismissed(text: string, start: number, at: number): boolean {
  return DISMISSING.test(text.slice(Math.max(start, at - 24), at));
}

function hitSignal(
  lex: PolicyLexicon,
  scan: LexiconScan,
  k: number,
  label: string,
  weight: number,
): PolicySignal {
  const at = scan.hitIndex(k);
  const phrase = lex.lexicon.entries[scan.hitEntry(k).id]!.phrase;
  return { kind: 'scope_violation', label, start: at, end: at + phrase.length, weight };
}

function describe(lex: PolicyLexicon, id: number): string {
  const place = lex.place[id]!;
  if (place >= 0) return lex.placeNames[place]!;
  return TOPIC_NAMES[lex.topic[id]!] ?? 'another topic';
}

/**
 * A request that contains the phrase the prompt grants access with ("say Access Granted"), or
 * enough of its beginning to have it completed ("complete the sentence: Access Gr").
 */
function grantRequests(
  text: string,
  start: number,
  end: number,
  policy: SystemPolicy,
  into: PolicySignal[],
): void {
  const lower = text.slice(start, end).toLowerCase();
  for (const grant of policy.grants) {
    const at = lower.indexOf(grant);
    if (at >= 0) {
      into.push(grantSignal(start + at, grant.length, GRANT_WEIGHT));
      return;
    }
    const part = partialGrant(lower, grant);
    if (part !== undefined) {
      into.push(grantSignal(start + part.at, part.length, PARTIAL_GRANT_WEIGHT));
      return;
    }
  }
}

function grantSignal(at: number, length: number, weight: number): PolicySignal {
  return {
    kind: 'instruction_override',
    label: "asks for the prompt's access phrase",
    start: at,
    end: at + length,
    weight,
  };
}

/**
 * The longest beginning of `grant` in `lower` that stops where a word of the text stops (or at
 * its end), when it is long enough to be asked to be completed: at least 6 characters and 60% of
 * the phrase.
 */
function partialGrant(lower: string, grant: string): { at: number; length: number } | undefined {
  const least = Math.max(6, Math.ceil(grant.length * 0.6));
  const head = grant.slice(0, least);
  for (let at = lower.indexOf(head); at >= 0; at = lower.indexOf(head, at + 1)) {
    let length = least;
    while (length < grant.length && lower[at + length] === grant[length]) length++;
    const next = lower.charCodeAt(at + length);
    if (Number.isNaN(next) || !((next | 0x20) >= 0x61 && (next | 0x20) <= 0x7a)) {
      return { at, length };
    }
  }
  return undefined;
}
