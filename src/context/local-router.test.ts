import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { documentContextRouterConfig } from './document-config.js';
import { LocalContextRouter } from './local-router.js';
import { GENERAL_CONTEXTUAL, PAGE_GROUNDED_DEFINITION, STANDALONE_DEFINITION } from './modes.js';
import { confidenceFromScores } from './scoring.js';

const router = new LocalContextRouter();
const documentRouter = new LocalContextRouter(documentContextRouterConfig());

/** The original design's confidence, written out independently of the implementation. */
const confidence = (top: number, second: number) =>
  Math.min(0.99, 0.5 + (top - second) / (top + second + 1e-6));

describe('the document’s router on its examples (scores per the formulas, departing from the original design)', () => {
  it('example 1: "Define macroeconomics very concisely" is a confident standalone definition', () => {
    const route = documentRouter.route('Define macroeconomics very concisely');
    expect(route.signals).toEqual(['definition', 'concision']);
    // definition = 0.55 + 0.16; standalone = 0.71 × 1.12 + 0.08; page definition = (0.71 − 0.60) × 1.25
    expect(route.scores[STANDALONE_DEFINITION]).toBeCloseTo(0.71 * 1.12 + 0.08, 10);
    expect(route.scores[PAGE_GROUNDED_DEFINITION]).toBeCloseTo(0.11 * 1.25, 10);
    expect(route.scores[GENERAL_CONTEXTUAL]).toBeCloseTo(0.24, 10);
    expect(route).toMatchObject({ mode: STANDALONE_DEFINITION, confidence: 0.99, confident: true });
    expect(route.margin).toBeCloseTo(0.8752 - 0.24, 10);
    expect(route.policy).toMatchObject({ useImage: false, maxSentences: 2 });
  });

  it('example 2: the far-right definition is page grounded, but too close to call locally', () => {
    const route = documentRouter.route(
      'Explain what complexity means in the definition on the far right',
    );
    expect(route.signals).toEqual(['definition', 'explain', 'doc_ref', 'spatial', 'on_page']);
    // definition = 0.73, page = 0.30 + 0.25 + 0.24 = 0.79
    const standalone = 0.73 * 1.12 - 0.79 * 0.68;
    const page = 0.79 + (0.73 - 0.6) * 1.25 + 0.22;
    const contextual = 0.24 + 0.1 + 0.79 * 0.7;
    expect(route.scores[STANDALONE_DEFINITION]).toBeCloseTo(standalone, 10);
    expect(route.scores[PAGE_GROUNDED_DEFINITION]).toBeCloseTo(page, 10);
    expect(route.scores[GENERAL_CONTEXTUAL]).toBeCloseTo(contextual, 10);
    expect(route.mode).toBe(PAGE_GROUNDED_DEFINITION);
    expect(route.confidence).toBeCloseTo(confidence(page, contextual), 10); // 0.64, not 0.88
    expect(route.confident).toBe(false); // → the LLM decides
  });

  it('example 3: "What does this section mean?" is confidently general contextual', () => {
    const route = documentRouter.route('What does this section mean?');
    expect(route.signals).toEqual(['definition', 'doc_ref', 'deictic', 'general']);
    const page = 0.3 + 0.22;
    const contextual = 0.24 + 0.44 + 0.16 + 0.1 + page * 0.7;
    expect(route.scores[GENERAL_CONTEXTUAL]).toBeCloseTo(contextual, 10);
    expect(route.scores[PAGE_GROUNDED_DEFINITION]).toBeCloseTo(page, 10);
    expect(route).toMatchObject({ mode: GENERAL_CONTEXTUAL, confident: true });
    expect(route.confidence).toBeCloseTo(confidence(contextual, page), 10);
  });

  it('example 4: "Is that important?" goes to general contextual (by the formulas, locally)', () => {
    const route = documentRouter.route('Is that important?');
    expect(route.signals).toEqual(['deictic']);
    expect(route.scores[STANDALONE_DEFINITION]).toBeCloseTo(-0.22 * 0.68, 10);
    expect(route.scores[GENERAL_CONTEXTUAL]).toBeCloseTo(0.24 + 0.16 + 0.22 * 0.7, 10);
    expect(route.mode).toBe(GENERAL_CONTEXTUAL);
  });

  it('never decides any of the document’s mode examples confidently wrong', () => {
    const examples: [string, string][] = [
      ['Define macroeconomics', STANDALONE_DEFINITION],
      ['What is quantum entanglement?', STANDALONE_DEFINITION],
      ['Explain photosynthesis very concisely', STANDALONE_DEFINITION],
      ['What does the term on the far right mean?', PAGE_GROUNDED_DEFINITION],
      ['Explain the definition in the top left', PAGE_GROUNDED_DEFINITION],
      ['What is complexity in this context?', PAGE_GROUNDED_DEFINITION],
      ['What does this section mean?', GENERAL_CONTEXTUAL],
      ['Summarize the main argument', GENERAL_CONTEXTUAL],
      ['How does this relate to the previous chapter?', GENERAL_CONTEXTUAL],
    ];
    for (const r of [router, documentRouter]) {
      for (const [question, mode] of examples) {
        const route = r.route(question);
        if (route.confident) expect(route.mode, question).toBe(mode);
      }
    }
    // The default router decides all but one of them locally (the document's, none of the
    // page-grounded ones).
    const local = examples.filter(([question]) => router.route(question).confident);
    expect(local.length).toBeGreaterThanOrEqual(examples.length - 1);
    for (const [question, mode] of examples.filter(([, m]) => m !== PAGE_GROUNDED_DEFINITION)) {
      expect(documentRouter.route(question)).toMatchObject({ mode, confident: true });
    }
  });
});

describe('the default router: page-grounded definitions decided locally', () => {
  it('decides a definition of a term placed on the page, and says why', () => {
    for (const question of [
      'What does the term in the top left mean?',
      'Explain what complexity means in the definition on the far right',
      'What does this symbol mean in the equation?',
      'Define the highlighted word.',
      'What is the acronym in the upper right corner?',
      'Explain the term in the caption of figure 2.',
    ]) {
      expect(router.route(question), question).toMatchObject({
        mode: PAGE_GROUNDED_DEFINITION,
        confident: true,
      });
    }
    const explained = router.explain('What does the word in bold at the top of the page mean?');
    expect(explained.evidence).toMatchObject({ term_ref: ['word'], marker: ['bold'] });
  });

  it('keeps a definition with no page reference standalone, even of "the word"', () => {
    for (const question of [
      'What does the word "ephemeral" mean?',
      'Define the term elasticity of demand.',
      'What is the definition of a vector space?',
    ]) {
      expect(router.route(question), question).toMatchObject({
        mode: STANDALONE_DEFINITION,
        confident: true,
      });
    }
  });

  it('sends what a region means, why and how, follow-ups and tasks to general contextual', () => {
    for (const question of [
      'What does this section mean?',
      'What is the main idea of this chapter?',
      'Why does the author reject the first hypothesis?',
      'How does this relate to the previous chapter?',
      'Go on.',
      'Quiz me on this page.',
    ]) {
      expect(router.route(question), question).toMatchObject({
        mode: GENERAL_CONTEXTUAL,
        confident: true,
      });
    }
  });
});

describe('corrections to the original design', () => {
  it('treats "nothing matched" as low confidence, not 0.99', () => {
    const route = router.route('Hmm?');
    expect(route.signals).toEqual([]);
    expect(route.confidence).toBe(0.34);
    expect(route.confident).toBe(false);
    expect(new LocalContextRouter({ noSignalConfidence: 0.1 }).route('Hmm.').confidence).toBe(0.1);
  });

  it('counts each signal once, however often it occurs', () => {
    const once = router.route('Define entropy');
    const thrice = router.route('Define, define, define entropy; define it');
    expect(thrice.scores).toEqual(once.scores);
  });

  it('uses the document’s thresholds 0.75 / 0.20, not the source’s 0.78 / 0.18', () => {
    expect(router.config.localConfidenceThreshold).toBe(0.75);
    expect(router.config.localMarginThreshold).toBe(0.2);
    // Confidence 0.76: local with the document's threshold, not with the source's.
    const route = router.route('Quickly define the term at the top.');
    expect(route.confidence).toBeGreaterThanOrEqual(0.75);
    expect(route.confidence).toBeLessThan(0.78);
    expect(route.confident).toBe(true);
    const source = new LocalContextRouter({
      localConfidenceThreshold: 0.78,
      localMarginThreshold: 0.18,
    });
    expect(source.route('Quickly define the term at the top.').confident).toBe(false);
  });

  it('matches whole words only: "undefined" is not "define", "thistle" is not "this"', () => {
    expect(router.route('The undefined thistle grows').signals).toEqual([]);
  });
});

describe('the signals', () => {
  it('finds the document’s gapped patterns', () => {
    expect(router.route('What does ubiquitous mean').signals).toContain('definition');
    expect(router.route('Explain what a monad means').signals).toContain('definition');
    expect(router.route('the symbol in the upper left corner').signals).toContain('on_page');
    expect(router.route('the symbol in the big old red page').signals).toContain('on_page');
    // four words between "in the" and "page" (as in the regex's {0,3}): no on_page
    expect(router.route('in the upper corner of the page').signals).not.toContain('on_page');
  });

  it('routes questions in other languages like their English equivalents', () => {
    const cases: [string, string][] = [
      ['¿Qué es la fotosíntesis?', STANDALONE_DEFINITION],
      ["Qu'est-ce que l'entropie ?", STANDALONE_DEFINITION],
      ['Was ist Inflation?', STANDALONE_DEFINITION],
      ['Что такое квантовая запутанность?', STANDALONE_DEFINITION],
      ['什么是机会成本？', STANDALONE_DEFINITION],
      ['量子もつれとは何ですか？', STANDALONE_DEFINITION],
      ['광합성이란 무엇인가요?', STANDALONE_DEFINITION],
      ['ما هو التضخم؟', STANDALONE_DEFINITION],
      ['O que é macroeconomia?', STANDALONE_DEFINITION],
      ['Résume cette page.', GENERAL_CONTEXTUAL],
      ['Fasse diesen Abschnitt zusammen.', GENERAL_CONTEXTUAL],
      ['总结一下这一页的内容。', GENERAL_CONTEXTUAL],
      ['このページを要約してください。', GENERAL_CONTEXTUAL],
      ['이 페이지를 요약해 주세요.', GENERAL_CONTEXTUAL],
      ['لخص هذه الصفحة.', GENERAL_CONTEXTUAL],
    ];
    for (const [question, mode] of cases) {
      expect(router.route(question), question).toMatchObject({ mode, confident: true });
    }
    const page = router.explain('Что означает термин справа на странице?');
    expect(Object.keys(page.evidence)).toEqual([
      'definition',
      'doc_ref',
      'spatial',
      'on_page',
      'term_ref',
    ]);
    expect(page.mode).toBe(PAGE_GROUNDED_DEFINITION);
  });

  it('does not let folding or the French "ce" create false signals', () => {
    // "qu'est-ce que" has a "ce"; Spanish "está" folds to "esta": neither is deictic here.
    expect(router.route("Qu'est-ce que l'entropie ?").signals).toEqual(['definition']);
    expect(router.route('¿Cómo está usted?').signals).toEqual([]);
  });

  it('explains what fired and the intermediate scores', () => {
    const explained = documentRouter.explain(
      'Explain what complexity means in the definition on the far right',
    );
    expect(explained.evidence).toEqual({
      definition: ['definition', 'explain what … means'],
      explain: ['explain'],
      doc_ref: ['definition'],
      spatial: ['far right', 'right'],
      on_page: ['on the … right'],
    });
    expect(explained.features.definition).toBeCloseTo(0.73, 10);
    expect(explained.features.page).toBeCloseTo(0.79, 10);
  });
});

describe('input limits', () => {
  it('says clearly when a caller passes something other than a string', () => {
    expect(() => router.route(undefined as unknown as string)).toThrow(
      'context router: the question must be a string, got undefined',
    );
  });

  it('reads only the first maxQuestionChars of a question', () => {
    const short = new LocalContextRouter({ maxQuestionChars: 20 });
    expect(short.route('Is that important? Define entropy briefly').signals).toEqual([
      'deictic',
      'reasoning',
    ]);
    expect(router.route('Is that important? Define entropy briefly').signals).toContain(
      'definition',
    );
  });
});

describe('confidenceFromScores', () => {
  it('follows the original design’s _confidence', () => {
    expect(confidenceFromScores(0.5, 0)).toBe(0.99);
    expect(confidenceFromScores(0, 0)).toBe(0.34);
    expect(confidenceFromScores(-0.1, -0.2)).toBe(0.34);
    expect(confidenceFromScores(1, 1)).toBeCloseTo(0.5, 5);
    expect(confidenceFromScores(3, 2)).toBeCloseTo(0.5 + 1 / (5 + 1e-6), 10);
    expect(confidenceFromScores(100, 0.01)).toBe(0.99);
  });
});

describe('properties', () => {
  const words = fc.constantFrom(
    'define',
    'what is',
    'explain',
    'briefly',
    'page',
    'this',
    'left',
    'on the',
    'summarize',
    'the',
    'term',
    'mean',
    'what does',
    '页面',
    'что такое',
    '?',
    '.',
  );
  const questions = fc.oneof(
    fc.array(words, { maxLength: 12 }).map((parts) => parts.join(' ')),
    fc.string({ maxLength: 80 }),
  );

  it('always chooses a mode of the table, with confidence in [0, 0.99] and a margin ≥ 0', () => {
    fc.assert(
      fc.property(questions, (question) => {
        const route = router.route(question);
        expect(router.modes).toContain(route.mode);
        expect(route.confidence).toBeGreaterThanOrEqual(0);
        expect(route.confidence).toBeLessThanOrEqual(0.99);
        expect(route.margin).toBeGreaterThanOrEqual(0);
        expect(route.policy).toBe(router.policy(route.mode));
        expect(route.scores[route.mode]).toBe(Math.max(...Object.values(route.scores)));
      }),
    );
  });

  it('is deterministic and independent of earlier questions (buffers are reused)', () => {
    fc.assert(
      fc.property(questions, questions, (a, b) => {
        const first = router.route(a);
        router.route(b);
        expect(router.route(a)).toEqual(first);
      }),
    );
  });
});
