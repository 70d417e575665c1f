import { compileLexicon } from '../src/text/index.js';
import type { BenchCase } from './harness.js';

// A 120-keyword lexicon over ordinary English prose: the cost of the shared scan that every
// keyword-based classifier pays, per text size.
const lexicon = compileLexicon({
  words: `function class import return const async await interface algorithm kubernetes distributed
    architecture database optimize latency throughput microservice compiler regression gradient
    neural tensor story poem brainstorm haiku prove theorem lemma proof derive induction equation
    integral derivative matrix probability build create implement deploy design develop refactor
    migrate configure install debug fix test review analyze compare evaluate explain summarize
    translate json yaml table csv markdown schema quantum fpga genomics cryptography kernel hello
    thanks define capital weather maximum minimum budget constraint avoid without except never
    docs api attached above below previous earlier`
    .split(/\s+/)
    .filter(Boolean),
  phrases: ['step by step', 'chain of thought', 'what is', 'capital of', 'write a', 'format as'],
});
const prose =
  'Distributed systems are hard to reason about because partial failures can happen at any time ' +
  'and messages may be delayed, reordered or lost. When we design a replicated log we must decide ' +
  'how leaders are elected, how followers catch up after a partition heals, and what guarantees ' +
  'clients receive when they read from a stale replica. ';
const repeat = (chars: number) => prose.repeat(Math.ceil(chars / prose.length)).slice(0, chars);
const short = 'What is the capital of France, and why is it there?';
const long = repeat(8_000);
const scan = lexicon.scan('');

export const benches: BenchCase[] = [
  { name: 'text.scan.short', description: '52-char question', fn: () => lexicon.scan(short, scan) },
  {
    name: 'text.scan.long',
    description: '8,000 chars (~2k tokens)',
    fn: () => lexicon.scan(long, scan),
  },
];
