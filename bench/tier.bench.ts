import { readFileSync } from 'node:fs';
// @ts-expect-error: the peer ships TypeScript sources, which tsx runs and tsc refuses to import.
import { classify as peerClassify } from 'claw-llm-router/classifier.ts';
import { createTierRouter } from '../src/tier/index.js';
import { trainTierWeights } from '../src/tier/train.js';
import { missingData, sharedData } from '../test/data.js';
import type { BenchCase } from './harness.js';

/**
 * The tier router's local decision (prompt extraction, one lexicon scan, fifteen dimensions,
 * overrides, confidence, signals) against claw-llm-router's exported `classify`, the router the
 * tier design comes from, on the same prompts in the same run.
 *
 * `tier.huge` is a ~105k-token prompt: past the huge-context override's 100k tokens, which the
 * router proves from the length alone (every UTF-16 unit is at least a quarter token) and decides
 * without a scan. `tier.huge.scan` turns that shortcut off, to show the cost of scanning all of
 * it; `tier.long.chat` is the long prompt inside an OpenAI request with a system prompt.
 *
 * `tier.short.trained` is `tier.short` with weights trained on the 7,021 MMLU outcome rows of
 * the data folder (`TRIAGE_DATA_DIR`, see test/data.ts; `triage train`'s defaults, on all rows; skipped when the folder is absent):
 * the learned term adds a word lookup per learned word found and three logarithms.
 *
 * `tier.short.set` cycles through the ~20-token prompts of our labelled set (50 to 120
 * characters, several languages), one per call, for both: the peer's time varies with the prompt
 * (7 to 20 µs on these), and `tier.short`'s prompt is one of its cheapest.
 */
// Case 3 of prompt extraction is off here, so that the long prompts (paragraphs, no system
// message) are scanned whole, as they were before it became the default: with it, they are scored
// from their last paragraph (`tier.long.default` shows that cost).
const extraction = { trailingMessage: 'off' } as const;
const router = createTierRouter({ extraction });
const byDefault = createTierRouter();
const fullScan = createTierRouter({
  extraction,
  overrides: { hugeContext: { skipScan: false } },
});

const SHORT = 'Write a Python function that checks whether a number is prime, with a docstring.'; // ~20 tokens
const PARAGRAPHS = [
  'Our payment service runs on Kubernetes behind an API gateway. Each request reads the customer ' +
    'profile from PostgreSQL, checks a Redis cache, calls the fraud service over gRPC and writes an ' +
    'audit event to Kafka. During last week’s incident the p99 latency rose from 80 ms to 4 seconds.',
  'First, explain which metrics you would look at to find the bottleneck, then propose a redesign ' +
    'of the caching layer with a budget of at most two extra nodes. Do not change the public API, ' +
    'avoid downtime, and keep the audit trail complete.',
  '```ts\nexport async function charge(customer: Customer, amount: number): Promise<Receipt> {\n' +
    '  const profile = await cache.get(customer.id) ?? await db.profiles.find(customer.id);\n' +
    '  const verdict = await fraud.check({ profile, amount });\n  return ledger.write(verdict);\n}\n```',
  'Finally, write a short summary table (in Markdown) of the trade-offs between write-through and ' +
    'write-behind caching for this workload, and say which one you would deploy and why.',
];
const text = (chars: number) => {
  let out = '';
  for (let i = 0; out.length < chars; i++) out += `${PARAGRAPHS[i % PARAGRAPHS.length]}\n\n`;
  return out.slice(0, chars);
};
const LONG = text(8_000); // ~2,000 tokens
const SHORT_SET = readFileSync(new URL('../test/fixtures/tier.jsonl', import.meta.url), 'utf8')
  .trim()
  .split('\n')
  .map((line) => (JSON.parse(line) as { input: unknown }).input)
  .filter((input): input is string => typeof input === 'string')
  .filter((input) => input.length >= 50 && input.length <= 120);
let next = 0;
let peerNext = 0;
const HUGE = text(420_000); // ~105,000 tokens
const LONG_CHAT = {
  model: 'triage/auto',
  messages: [
    { role: 'system', content: 'You are a senior engineer. Think step by step. Answer in JSON.' },
    { role: 'user', content: LONG },
  ],
};

export const benches: BenchCase[] = [
  {
    name: 'tier.short',
    description: `~20-token prompt (${SHORT.length} chars)`,
    fn: () => router.classify(SHORT),
    peer: { name: 'claw-llm-router', fn: () => peerClassify(SHORT) },
  },
  ...trainedCases(),
  {
    name: 'tier.short.set',
    description: `${SHORT_SET.length} prompts of 50-120 chars from the labelled set, one per call`,
    fn: () => router.classify(SHORT_SET[next++ % SHORT_SET.length]!),
    peer: {
      name: 'claw-llm-router',
      fn: () => peerClassify(SHORT_SET[peerNext++ % SHORT_SET.length]!),
    },
  },
  {
    name: 'tier.long',
    description: `~2,000-token prompt (${LONG.length} chars)`,
    fn: () => router.classify(LONG),
    peer: { name: 'claw-llm-router', fn: () => peerClassify(LONG) },
  },
  {
    name: 'tier.long.default',
    description: 'the ~2,000-token prompt with default extraction (scored from its last paragraph)',
    fn: () => byDefault.classify(LONG),
  },
  {
    name: 'tier.huge',
    description: `~105,000-token prompt (${HUGE.length} chars), decided by the override`,
    fn: () => router.classify(HUGE),
    peer: { name: 'claw-llm-router', fn: () => peerClassify(HUGE) },
  },
  {
    name: 'tier.huge.scan',
    description: '~105,000-token prompt, scanned in full (skipScan off)',
    fn: () => fullScan.classify(HUGE),
  },
  {
    name: 'tier.long.chat',
    description: 'the ~2,000-token prompt in a chat request with a system prompt',
    fn: () => router.classify(LONG_CHAT),
  },
];

/** The trained-weights cases, when the outcome data to train on is there. */
function trainedCases(): BenchCase[] {
  const mmlu = sharedData('routing/routellm_outcomes_mmlu_train.jsonl');
  if (!mmlu) {
    process.stderr.write(
      `tier: tier.short.trained skipped (${missingData('routing/routellm_outcomes_mmlu_train.jsonl')})\n`,
    );
    return [];
  }
  const rows = readFileSync(mmlu, 'utf8')
    .trim()
    .split('\n')
    .map(
      (line) =>
        JSON.parse(line) as { prompt: string; weak_correct: boolean; strong_correct: boolean },
    )
    .map((row) => ({
      input: row.prompt,
      outcome: { weak: Number(row.weak_correct), strong: Number(row.strong_correct) },
    }));
  const { weights } = trainTierWeights(rows, { holdout: 0 });
  const trained = createTierRouter({ weights });
  return [
    {
      name: 'tier.short.trained',
      description: `tier.short with weights trained on MMLU outcomes (${Object.keys(weights.learned?.words ?? {}).length} words)`,
      fn: () => trained.classify(SHORT),
    },
  ];
}
