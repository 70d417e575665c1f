import { fileURLToPath } from 'node:url';

/**
 * The folder of the stock classifiers (one sub-folder each, plus `_prompts/` with the shared
 * fragments). Resolved from this module's own URL, so it is found both in `src/` (tests, tsx)
 * and in `dist/` (the build copies the folder beside the bundled code, as `dist/classifiers/`).
 */
export const STOCK_CLASSIFIERS_DIR = fileURLToPath(new URL('./classifiers/', import.meta.url));

/** The stock classifiers, in dispatch order. */
export const STOCK_CLASSIFIER_NAMES = [
  'prompt_injection',
  'preflight',
  'routing',
  'model_specialization',
  'tools',
  'memory_retrieval_queries',
  'conversation_digest',
  'context_shift',
] as const;

/** The name of a stock classifier. */
export type StockClassifierName = (typeof STOCK_CLASSIFIER_NAMES)[number];
