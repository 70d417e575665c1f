import type { ContextModeSpec, FeatureSpec, ModeScore } from './schema.js';

/**
 * The original design's three question modes, their scores and their context policies, as data: the
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
 * The original design's intermediate scores: each is a base plus the weight of every matched signal,
 * counted once per signal however often it occurs (a departure from the original design).
 */
export const DOCUMENT_FEATURES: Readonly<Record<string, FeatureSpec>> = {
  definition: { base: 0, weights: { definition: 0.55, explain: 0.18, concision: 0.16 } },
  page: { base: 0, weights: { doc_ref: 0.3, deictic: 0.22, spatial: 0.25, on_page: 0.24 } },
  contextual: { base: 0.24, weights: { general: 0.44, deictic: 0.16, doc_ref: 0.1 } },
};

/**
 * The default intermediate scores: the document's, with the grounding signals added (see
 * `signals.ts`). A term singled out (`marker`), placed (`location`) or anchored (`grounding`) on
 * the page adds to `page`; what asks for more than a definition (`about`, `reasoning`,
 * `followup`, `task`) adds to `contextual`. The new weights were fitted on the project's labelled
 * questions (docs/context.md) and checked on a held-out set.
 */
export const DEFAULT_FEATURES: Readonly<Record<string, FeatureSpec>> = {
  definition: DOCUMENT_FEATURES.definition!,
  page: {
    base: 0,
    weights: {
      ...DOCUMENT_FEATURES.page!.weights,
      location: 0.45,
      marker: 0.3,
      grounding: 0.3,
    },
  },
  contextual: {
    base: 0.24,
    weights: {
      ...DOCUMENT_FEATURES.contextual!.weights,
      about: 0.4,
      reasoning: 0.4,
      followup: 0.5,
      task: 0.45,
    },
  },
};

/** The original design's mode scores, exactly. */
export const DOCUMENT_SCORES: Readonly<Record<DefaultContextMode, ModeScore>> = {
  // standalone = definition × 1.12 − page × 0.68 (+ 0.08 when concision matched)
  [STANDALONE_DEFINITION]: {
    terms: [
      { feature: 'definition', factor: 1.12 },
      { feature: 'page', factor: -0.68 },
    ],
    bonuses: [{ add: 0.08, signals: ['concision'], above: {} }],
  },
  // page_definition = page (+ (definition − 0.60) × 1.25 when definition > 0.60)
  //                        (+ 0.22 when spatial and doc_ref both matched)
  [PAGE_GROUNDED_DEFINITION]: {
    terms: [
      { feature: 'page', factor: 1 },
      { feature: 'definition', factor: 1.25, over: 0.6 },
    ],
    bonuses: [{ add: 0.22, signals: ['spatial', 'doc_ref'], above: {} }],
  },
  // contextual = contextual + page × 0.70 (− 0.16 when definition > 0.75 and page > 0.35)
  [GENERAL_CONTEXTUAL]: {
    terms: [
      { feature: 'contextual', factor: 1 },
      { feature: 'page', factor: 0.7 },
    ],
    bonuses: [{ add: -0.16, signals: [], above: { definition: 0.75, page: 0.35 } }],
  },
};

/**
 * The default mode scores. The document's formulas let `general_contextual` grow with every page
 * reference (`+ 0.70 × page`), so a definition of a term on the page ("What does the term in the
 * top left mean?") was rarely decided locally. Here a definition request anchored on the page
 * earns page-grounded bonuses, most when it names a term ("the word", "this symbol"), and a
 * general question (why, what a passage is about, a follow-up, a task) lowers both definition
 * modes:
 *
 *     standalone = 1.12 × definition − 0.88 × page − 0.8 × (contextual − 0.24)  (+0.08 concision)
 *     page       = 0.4 × page + 1.25 × (definition − 0.60)⁺ − 0.5 × (contextual − 0.24)
 *                  + 0.25 definition on the page  + 0.65 … of a term  + 1.1 explain a term on it
 *                  + 0.25 definition with a marker  + 0.3 definition with grounding
 *                  + 0.22 spatial and doc_ref (the document's)
 *     general    = contextual + 0.5 × page  (− 0.16 the document's; − 0.3 a term's definition)
 */
export const DEFAULT_SCORES: Readonly<Record<DefaultContextMode, ModeScore>> = {
  [STANDALONE_DEFINITION]: {
    terms: [
      { feature: 'definition', factor: 1.12 },
      { feature: 'page', factor: -0.88 },
      { feature: 'contextual', factor: -0.8, over: 0.24 },
    ],
    bonuses: [{ add: 0.08, signals: ['concision'], above: {} }],
  },
  [PAGE_GROUNDED_DEFINITION]: {
    terms: [
      { feature: 'page', factor: 0.4 },
      { feature: 'definition', factor: 1.25, over: 0.6 },
      { feature: 'contextual', factor: -0.5, over: 0.24 },
    ],
    bonuses: [
      { add: 0.25, signals: ['definition'], above: { page: 0.15 } },
      { add: 0.65, signals: ['definition', 'term_ref'], above: { page: 0.15 } },
      { add: 1.1, signals: ['explain', 'term_ref'], above: { page: 0.15 } },
      { add: 0.25, signals: ['definition', 'marker'], above: {} },
      { add: 0.3, signals: ['definition', 'grounding'], above: {} },
      { add: 0.22, signals: ['spatial', 'doc_ref'], above: {} },
    ],
  },
  [GENERAL_CONTEXTUAL]: {
    terms: [
      { feature: 'contextual', factor: 1 },
      { feature: 'page', factor: 0.5 },
    ],
    bonuses: [
      { add: -0.16, signals: [], above: { definition: 0.75, page: 0.35 } },
      { add: -0.3, signals: ['definition', 'term_ref'], above: { page: 0.15 } },
    ],
  },
};

/** The default mode table, in the document's order. */
export const DEFAULT_MODES: Readonly<Record<DefaultContextMode, ContextModeSpec>> = {
  [STANDALONE_DEFINITION]: {
    description: 'direct concept definitions without requested page grounding',
    examples: ['Explain macroeconomics very concisely.'],
    score: DEFAULT_SCORES[STANDALONE_DEFINITION],
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
    score: DEFAULT_SCORES[PAGE_GROUNDED_DEFINITION],
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
    score: DEFAULT_SCORES[GENERAL_CONTEXTUAL],
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
