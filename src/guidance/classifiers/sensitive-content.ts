import Type, { type Static } from 'typebox';
import type { Classifier } from '../../core/classifier.js';
import { ClassificationResult } from '../../core/result.js';
import { compileLexicon, type Lexicon, type LexiconScan } from '../../text/index.js';
import type { GuidanceContext, ToolCall } from '../types.js';
import { classifierOptions } from './options.js';

// What a plural "tokens" must follow to name secrets: alone, `tokens` is what a model counts
// (`max_tokens`, `prompt_tokens`), not a credential.
const SECRET_TOKEN_KINDS = ['access', 'auth', 'refresh', 'api', 'bearer', 'session', 'id', 'oauth'];

/**
 * Terms that mark a call as touching secrets, matched as whole words of keys and string values
 * after identifiers are split into words (`api_key`, `apiKey`, `X-API-KEY` → "api key"). They
 * cover what the original design's patterns (`password`, `secret`, `api[_-]?key`, `credential`,
 * `token`) were meant to catch, plurals and compounds included (`passwords`, `client_secrets`,
 * `apikeys`, `access_tokens`, `dbpassword`, `authtoken`: a leading `*` allows a glued prefix),
 * without the words that merely contain one: `max_tokens` and `prompt_tokens` (a plain `tokens`
 * is what a model counts, so only the plurals of secret kinds of token count), `tokenizer`,
 * `secretary`, `passwordless`.
 */
export const DEFAULT_SENSITIVE_TERMS: readonly string[] = [
  '*password',
  '*passwords',
  '*passwd',
  'passphrase',
  'passphrases',
  '*secret',
  '*secrets',
  'secretkey',
  'secretkeys',
  'api key',
  'api keys',
  '*apikey',
  '*apikeys',
  '*credential',
  '*credentials',
  '*token',
  ...SECRET_TOKEN_KINDS.flatMap((kind) => [`${kind} tokens`, `${kind}tokens`]),
  'private key',
  'private keys',
  'privatekey',
  'privatekeys',
  'access key',
  'access keys',
  'accesskey',
  'accesskeys',
  'authorization',
  'bearer',
];

/** Options of {@link SensitiveContentClassifier}. */
export const SensitiveContentOptionsSchema = Type.Object(
  {
    /**
     * Words or phrases (lexicon syntax: a trailing `*` allows more letters, `secret*`). Matched on
     * word boundaries, case- and separator-insensitively.
     */
    terms: Type.Array(Type.String({ minLength: 1 }), {
      minItems: 1,
      default: [...DEFAULT_SENSITIVE_TERMS],
    }),
    /** Characters of keys and string values scanned per call. Default 32,768. */
    maxScanChars: Type.Integer({ minimum: 1, default: 32_768 }),
  },
  { additionalProperties: false },
);
export type SensitiveContentOptions = Static<typeof SensitiveContentOptionsSchema>;
const options = classifierOptions('sensitive_content', SensitiveContentOptionsSchema);

/** A term found in a call's params. */
interface Finding {
  readonly term: string;
}

interface SharedLexicon {
  readonly lexicon: Lexicon;
  readonly scan: LexiconScan;
}

// A compiled lexicon holds large lookup tables (about 0.5 MB): instances with the same terms
// share one (and its scan buffer: scans are synchronous), so an instance itself stays a few
// hundred bytes. The most recent term lists are kept; instances keep their own reference.
const lexicons = new Map<string, SharedLexicon>();
const MAX_SHARED_LEXICONS = 16;

function sharedLexicon(terms: readonly string[]): SharedLexicon {
  const key = JSON.stringify(terms);
  let shared = lexicons.get(key);
  if (shared === undefined) {
    const lexicon = compileLexicon({ sensitive: terms });
    shared = { lexicon, scan: lexicon.scan('') };
    if (lexicons.size >= MAX_SHARED_LEXICONS) lexicons.delete(lexicons.keys().next().value!);
    lexicons.set(key, shared);
  }
  return shared;
}

// Word boundaries inside identifiers: underscores, camelCase, acronym-then-word, letter/digit.
const IDENTIFIER_BOUNDARY =
  /_+|(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])|(?<=[A-Za-z])(?=\d)|(?<=\d)(?=[A-Za-z])/g;
// Separates keys and values in the scanned text; not a space or hyphen, so no phrase spans two.
const FIELD_SEPARATOR = ' | ';

/**
 * Fires when a pending call's params mention a secret (the original design's patterns, on word
 * boundaries of keys and values). `max_tokens`, `tokenizer` and `secretary` do not match;
 * `password`, `api_key`, `apiKey`, `apikeys`, `AWS_SECRET_ACCESS_KEY`, `auth_token` and
 * `access_tokens` do.
 * Confidence 0.9. Only the first `maxScanChars` characters of a call's keys and values are
 * scanned, and each pending call is scanned once, however many events pass while it is pending.
 */
export class SensitiveContentClassifier implements Classifier<GuidanceContext> {
  readonly name = 'sensitive_content';
  readonly terms: readonly string[];
  readonly maxScanChars: number;
  readonly #shared: SharedLexicon;
  readonly #seen = new WeakMap<ToolCall, Finding | null>();

  constructor(input?: Partial<SensitiveContentOptions>) {
    const { terms, maxScanChars } = options(input);
    this.terms = terms;
    this.maxScanChars = maxScanChars;
    this.#shared = sharedLexicon(terms);
  }

  classify(context: GuidanceContext): ClassificationResult {
    const pending = context.pendingToolCalls;
    for (let i = 0; i < pending.length; i++) {
      const call = pending[i]!;
      let finding = this.#seen.get(call);
      if (finding === undefined) {
        finding = this.#inspect(call);
        this.#seen.set(call, finding);
      }
      if (finding !== null) {
        return ClassificationResult.yes(0.9, {
          reason: `sensitive term '${finding.term}' in the params of pending call ${call.toolName}`,
          metadata: { term: finding.term, tool: call.toolName, callId: call.callId },
        });
      }
    }
    return ClassificationResult.no();
  }

  /** The first term found in the call's keys and string values, or null. */
  #inspect(call: ToolCall): Finding | null {
    const parts: string[] = [];
    collectText(call.params, parts, { left: this.maxScanChars }, 0);
    if (parts.length === 0) return null;
    const text = parts.join(FIELD_SEPARATOR).replace(IDENTIFIER_BOUNDARY, ' ');
    const { lexicon, scan } = this.#shared;
    const found = lexicon.scan(text, scan);
    return found.hitCount === 0 ? null : { term: found.hitEntry(0).label };
  }
}

/** Collects keys and string values, depth first, until the character budget is spent. */
function collectText(
  value: unknown,
  parts: string[],
  budget: { left: number },
  depth: number,
): void {
  if (budget.left <= 0 || depth > 16) return;
  if (typeof value === 'string') {
    const part = value.length > budget.left ? value.slice(0, budget.left) : value;
    parts.push(part);
    budget.left -= part.length;
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  if (Array.isArray(value)) {
    for (const item of value) collectText(item, parts, budget, depth + 1);
    return;
  }
  for (const key of Object.keys(value)) {
    if (budget.left <= 0) return;
    collectText(key, parts, budget, depth + 1);
    collectText((value as Record<string, unknown>)[key], parts, budget, depth + 1);
  }
}
