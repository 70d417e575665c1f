import type { ContextModeSpec, FeatureSpec } from './schema.js';

/**
 * Document 004's three question modes, their scores and their context policies, as data: the
 * router reads this table, so a user changes a policy, re-weights a score or adds a mode of their
 * own through configuration (see `contextRouterConfig`).
 */

/** The modes of the default table. */
export const STANDALONE_DEFINITION = 'standalone_definition';
export const PAGE_GROUNDED_DEFINITION = 'page_grounded_definition';
export const GENERAL_CONTEXTUAL = 'general_contextual';

/** One of the default modes (a configured table may add its own names). */
export type DefaultContextMode =
  | typeof STANDALONE_DEFINITION
  | typeof PAGE_GROUNDED_DEFINITION
  | typeof GENERAL_CONTEXTUAL;

/**
 * The intermediate scores of document 004: each is a base plus the weight of every matched signal,
 * counted once per signal however often it occurs (SPEC-NOTES).
 */
export const DEFAULT_FEATURES: Readonly<Record<string, FeatureSpec>> = {
  definition: { base: 0, weights: { definition: 0.55, explain: 0.18, concision: 0.16 } },
  page: { base: 0, weights: { doc_ref: 0.3, deictic: 0.22, spatial: 0.25, on_page: 0.24 } },
  contextual: { base: 0.24, weights: { general: 0.44, deictic: 0.16, doc_ref: 0.1 } },
};

/** The default mode table, in the document's order. */
export const DEFAULT_MODES: Readonly<Record<DefaultContextMode, ContextModeSpec>> = {
  [STANDALONE_DEFINITION]: {
    description: 'direct concept definitions without requested page grounding',
    examples: ['Explain macroeconomics very concisely.'],
    // standalone = definition × 1.12 − page × 0.68 (+ 0.08 when concision matched)
    score: {
      terms: [
        { feature: 'definition', factor: 1.12 },
        { feature: 'page', factor: -0.68 },
      ],
      bonuses: [{ add: 0.08, signals: ['concision'], above: {} }],
    },
    policy: {
      useImage: false,
      useHistory: false,
      useMemoryContext: false,
      useNotesContext: false,
      maxSentences: 2,
      historyTurnWindow: 0,
      turnInstruction:
        'Return a direct standalone definition in at most two sentences. ' +
        'Do not reference the page unless explicitly asked.',
    },
  },
  [PAGE_GROUNDED_DEFINITION]: {
    description:
      'definition requests tied to page location or document references ' +
      "(e.g., 'definition on the far right')",
    examples: ['Explain what complexity means in the definition on the far right.'],
    // page_definition = page (+ (definition − 0.60) × 1.25 when definition > 0.60)
    //                        (+ 0.22 when spatial and doc_ref both matched)
    score: {
      terms: [
        { feature: 'page', factor: 1 },
        { feature: 'definition', factor: 1.25, over: 0.6 },
      ],
      bonuses: [{ add: 0.22, signals: ['spatial', 'doc_ref'], above: {} }],
    },
    policy: {
      useImage: true,
      useHistory: true,
      useMemoryContext: false,
      useNotesContext: false,
      maxSentences: 2,
      historyTurnWindow: 2,
      turnInstruction:
        'Answer the definition request using the relevant page location. ' +
        'Keep the answer to at most two sentences.',
    },
  },
  [GENERAL_CONTEXTUAL]: {
    description: 'general page interpretation',
    examples: ['What does this section mean?'],
    // contextual = contextual + page × 0.70 (− 0.16 when definition > 0.75 and page > 0.35)
    score: {
      terms: [
        { feature: 'contextual', factor: 1 },
        { feature: 'page', factor: 0.7 },
      ],
      bonuses: [{ add: -0.16, signals: [], above: { definition: 0.75, page: 0.35 } }],
    },
    policy: {
      useImage: true,
      useHistory: true,
      useMemoryContext: true,
      useNotesContext: true,
      maxSentences: null,
      historyTurnWindow: 0,
      turnInstruction: null,
    },
  },
};
