import { LocalContextRouter, limitSentences, splitSentences } from '../src/context/index.js';
import type { BenchCase } from './harness.js';

// Questions of every mode and a few languages, cycled so that one operation is one question and
// the branch predictor does not learn a single input. Average length: ~45 characters.
const questions = [
  'Define macroeconomics very concisely',
  'Explain what complexity means in the definition on the far right',
  'What does this section mean?',
  'Is that important?',
  'What is quantum entanglement?',
  'What does the term on the far right mean?',
  'Summarize the main argument',
  'How does this relate to the previous chapter?',
  'What does the word in bold at the top of the page mean?',
  'Can you clarify?',
  '¿Qué es la fotosíntesis?',
  '页面右上角的这个词是什么意思？',
];
const router = new LocalContextRouter();
let next = 0;

// A typical long LLM answer (~1,300 characters) with abbreviations, decimals and a URL.
const answer = `${'Photosynthesis converts light into chemical energy, e.g. in the chloroplasts of plant cells. Dr. Smith measured an efficiency of about 3.4 percent (see https://example.org/a.b for the data). The process has two stages... the light reactions and the Calvin cycle! '.repeat(5)}`;

export const benches: BenchCase[] = [
  {
    name: 'context.route',
    description: 'local routing of one question (12 cycled, ~45 chars)',
    fn: () => router.route(questions[next++ % questions.length]!),
  },
  {
    name: 'context.limit',
    description: 'limitSentences(answer, 2) on a 1,300-char answer',
    fn: () => limitSentences(answer, 2),
  },
  {
    name: 'context.split',
    description: 'splitSentences on a 1,300-char answer (15 sentences)',
    fn: () => splitSentences(answer),
  },
];
