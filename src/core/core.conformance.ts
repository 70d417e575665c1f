import type { ConformanceCase } from '../../test/conformance.js';
import { compileLexicon } from '../text/index.js';
import type { Classifier } from './classifier.js';
import { allOf, anyOf, not, threshold } from './composites.js';
import { ClassificationResult } from './result.js';

// The composites over two small text classifiers: whatever the text, combining classifiers must
// keep results well-formed (no NaN from an average, no reason-less fire from a `not`).
const lexicon = compileLexicon({
  question: ['what', 'why', 'how', '吗', 'почему'],
  code: ['function', '```', 'def'],
});
const scan = lexicon.scan('');
const byCategory = (category: string): Classifier<string> => {
  const index = lexicon.categoryIndex(category);
  return {
    name: category,
    classify: (text) => {
      const found = lexicon.scan(text, scan).distinct(index);
      return found === 0
        ? ClassificationResult.no()
        : ClassificationResult.yes(Math.min(1, found / 2), {
            reason: `${found} ${category} words`,
          });
    },
  };
};
const question = byCategory('question');
const code = byCategory('code');

export const conformance: ConformanceCase[] = [
  allOf(question, code),
  anyOf(question, code),
  not(question),
  threshold(code, 0.6),
  allOf<string>(),
].map((classifier) => ({
  name: `core: ${classifier.name}`,
  classify: (text: string) => classifier.classify(text),
}));
