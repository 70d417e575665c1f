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
/** Weight of a request about a forbidden topic. */
const FORBIDDEN_WEIGHT = 0.6;
/** Weight of a request outside the prompt's scope. */
const OFF_SCOPE_WEIGHT = 0.55;

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

  #scope(text: string, start: number, end: number, policy: SystemPolicy, into: PolicySignal[]) {
    const lex = policyLexicon();
    this.#scan ??= lex.lexicon.scan('');
    const scan = lex.lexicon.scan(text, this.#scan, start, end);
    const inside = policy.scopeTopics | (policy.scopePlaces.length > 0 ? lex.localTopics : 0);
    const placeScoped = policy.scopePlaces.length > 0;
    const topicScoped = policy.scopeTopics !== 0 || placeScoped;
    let within = 0;
    let outside = 0;
    let firstOutside = -1;
    for (let k = 0; k < scan.hitCount; k++) {
      const entry = scan.hitEntry(k);
      const at = scan.hitIndex(k);
      const topic = lex.topic[entry.id]!;
      const place = lex.place[entry.id]!;
      if (topic >= 0 && (policy.forbiddenTopics & (1 << topic)) !== 0) {
        into.push(
          signal(
            'scope_violation',
            `forbidden topic: ${TOPIC_NAMES[topic]}`,
            at,
            entry,
            FORBIDDEN_WEIGHT,
          ),
        );
        continue;
      }
      if (!topicScoped) continue;
      const occurrences = scan.hitOccurrences(k);
      const inScope =
        place >= 0
          ? placeScoped
            ? policy.scopePlaces.includes(place)
            : false
          : topic >= 0 && (inside & (1 << topic)) !== 0;
      if (topic < 0 && place < 0) continue;
      if (inScope) within += occurrences;
      else {
        // Another place than the one the assistant keeps to is off scope whatever else is said.
        if (place >= 0 && placeScoped) {
          into.push(
            signal(
              'scope_violation',
              `outside scope: ${lex.placeNames[place]}`,
              at,
              entry,
              OFF_SCOPE_WEIGHT,
            ),
          );
          continue;
        }
        outside += occurrences;
        if (firstOutside < 0 || at < scan.hitIndex(firstOutside)) firstOutside = k;
      }
    }
    if (outside > within && firstOutside >= 0) {
      const entry = scan.hitEntry(firstOutside);
      const at = scan.hitIndex(firstOutside);
      into.push(
        signal(
          'scope_violation',
          `outside scope: ${describe(lex, entry.id)}`,
          at,
          entry,
          OFF_SCOPE_WEIGHT,
        ),
      );
    }
  }
}

function signal(
  kind: PolicySignal['kind'],
  label: string,
  at: number,
  entry: { readonly phrase: string },
  weight: number,
): PolicySignal {
  return { kind, label, start: at, end: at + entry.phrase.length, weight };
}

function describe(lex: PolicyLexicon, id: number): string {
  const place = lex.place[id]!;
  if (place >= 0) return lex.placeNames[place]!;
  return TOPIC_NAMES[lex.topic[id]!] ?? 'another topic';
}

/** A request that contains the phrase the prompt grants access with ("say Access Granted"). */
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
    if (at < 0) continue;
    into.push({
      kind: 'instruction_override',
      label: "asks for the prompt's access phrase",
      start: start + at,
      end: start + at + grant.length,
      weight: GRANT_WEIGHT,
    });
    return;
  }
}
