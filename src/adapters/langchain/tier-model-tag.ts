/**
 * The tag of the run of the tier model a `TriageChatModel` calls (a child run in traces): the
 * guidance handler counts one turn per routed call, not two.
 */
export const TIER_MODEL_TAG = 'triage:tier-model';
