import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FeatureExtractor, FeatureTable } from './features.js';
import { Prematcher } from './prematcher.js';
import { CapabilityRegistry } from './registry.js';
import { TfidfIndex } from './tfidf.js';

const registry = CapabilityRegistry.fromFile(
  fileURLToPath(new URL('./testdata/assistant.yaml', import.meta.url)),
);
const classifiable = registry.all().filter((c) => !c.alwaysActive);
const prematcher = new Prematcher(classifiable);

function verdicts(task: string): Record<string, string> {
  return Object.fromEntries(prematcher.match(task).matches.map((m) => [m.name, m.decision]));
}

describe('FeatureExtractor', () => {
  const extractor = new FeatureExtractor();
  const bag = new FeatureTable(4);
  const keysOf = (table: FeatureTable) =>
    new Set(
      Array.from({ length: table.size }, (_, i) => `${table.firstAt(i)}:${table.secondAt(i)}`),
    );
  const keys = (text: string) => keysOf(extractor.extract(text, bag));

  it('folds case, diacritics and full-width forms', () => {
    expect(keys('Café WEATHER')).toEqual(keys('cafe weather'));
    expect(keys('ｗｅａｔｈｅｒ')).toEqual(keys('weather'));
  });

  it('looks through zero-width characters', () => {
    expect(keys('wea\u200Bther')).toEqual(keys('weather'));
  });

  it('breaks word pairs at punctuation but not at spaces', () => {
    const phrase = keys('rain tomorrow');
    const split = keys('rain. tomorrow');
    expect(phrase.size).toBe(split.size + 1);
  });

  it('reads at most maxChars characters', () => {
    const short = new FeatureExtractor({ maxChars: 5 });
    expect(keysOf(short.extract('abcde fghij', bag))).toEqual(keys('abcde'));
  });

  it('counts repeated features and grows its table without losing any', () => {
    const once = extractor.extract('alpha', new FeatureTable(2)).size;
    const table = extractor.extract('alpha alpha', new FeatureTable(2));
    expect(table.size).toBe(once + 1); // the pair "alpha alpha" is new
    expect(table.valueAt(0)).toBe(2); // the word itself, seen twice
    const long = Array.from({ length: 500 }, (_, i) => `word${i}`).join(' ');
    const grown = extractor.extract(long, new FeatureTable(2));
    expect(grown.size).toBe(keys(long).size);
    for (let i = 0; i < grown.size; i++) {
      expect(grown.get(grown.firstAt(i), grown.secondAt(i))).toBe(grown.valueAt(i));
    }
    grown.clear();
    expect(grown.size).toBe(0);
    expect(grown.get(bag.firstAt(0), bag.secondAt(0))).toBe(-1);
  });
});

describe('TfidfIndex', () => {
  const index = new TfidfIndex(
    ['will it rain tomorrow', 'send an email to bob', 'schedule a meeting'],
    new FeatureExtractor(),
  );
  const out = new Float64Array(3);

  it('scores an identical text 1 and an unrelated one 0', () => {
    expect(index.similarities('send an email to bob', out)).toBe(1);
    expect(out[1]).toBeCloseTo(1, 9);
    expect(out[0]).toBeLessThan(0.2);
    expect(index.similarities('xyzzy plugh', out)).toBe(0);
    expect([...out]).toEqual([0, 0, 0]);
  });

  it('reports the share of a text it knows', () => {
    const coverage = index.similarities('rain qqqqqqqq zzzzzzzz', out);
    expect(coverage).toBeGreaterThan(0);
    expect(coverage).toBeLessThan(0.5);
  });
});

describe('Prematcher', () => {
  it('decides a near copy of an example locally and rules out unrelated capabilities', () => {
    expect(verdicts("What's the weather like in Paris today?")).toEqual({
      current_weather: 'yes',
      send_email: 'no',
      calendar: 'no',
    });
    // "Dave" and "Monday" are in no example, but they name what "Carol" and "Friday" name.
    expect(verdicts('Schedule a meeting with Dave on Monday')).toMatchObject({
      calendar: 'yes',
      current_weather: 'no',
    });
  });

  it('rules a capability out when the task is one of its counter-examples', () => {
    const weather = prematcher.match('What time is it?').matches[0]!;
    expect(weather).toMatchObject({ name: 'current_weather', decision: 'no', value: false });
    expect(weather.reason).toMatch(/counter-examples/);
  });

  it('rules out neither part of a task that needs two capabilities', () => {
    const result = prematcher.match('Email Bob the weather forecast for tomorrow');
    const [weather, email] = result.matches;
    expect(weather).toMatchObject({ name: 'current_weather', value: true });
    expect(weather!.decision).not.toBe('no');
    expect(email).toMatchObject({ name: 'send_email', decision: 'uncertain' });
  });

  it('decides nothing on a task whose wording the examples do not cover', () => {
    for (const task of ['明天会下雨吗', 'Erzähl mir einen Witz über Katzen', '', '🙂🙂']) {
      const result = prematcher.match(task);
      expect(result.coverage).toBeLessThan(prematcher.options.minCoverage);
      expect(result.matches.every((m) => m.decision === 'uncertain')).toBe(true);
      expect(result.matches[0]!.reason).toMatch(/wording appears in the examples/);
      expect(result.matches.every((m) => m.value === false)).toBe(true);
    }
  });

  it('gives clear verdicts at least the local-decision confidence, uncertain ones less', () => {
    for (const task of ['Will it rain tomorrow?', 'Send an email to Bob', 'Move my meeting']) {
      for (const match of prematcher.match(task).matches) {
        if (match.decision === 'uncertain') expect(match.confidence).toBeLessThan(0.75);
        else expect(match.confidence).toBeGreaterThanOrEqual(0.75);
        expect(match.value).toBe(
          match.decision === 'uncertain' ? match.value : match.decision === 'yes',
        );
      }
    }
  });

  it('never says yes for a capability that has only negative examples, or none', () => {
    const onlyNegative = new Prematcher([
      {
        name: 'not_weather',
        description: 'x',
        alwaysActive: false,
        guide: { instructions: 'x', examples: [{ query: 'What time is it?', result: false }] },
      },
      { name: 'bare', description: 'y', alwaysActive: false },
    ]);
    const [negative, bare] = onlyNegative.match('What time is it?').matches;
    expect(negative).toMatchObject({ decision: 'uncertain', reason: 'only negative examples' });
    expect(bare).toMatchObject({ decision: 'uncertain', reason: 'no examples to compare with' });
  });

  it('keeps every score in [0, 1] and is deterministic, on any text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (text) => {
        const first = prematcher.match(text);
        for (const match of first.matches) {
          expect(match.score).toBeGreaterThanOrEqual(0);
          expect(match.score).toBeLessThanOrEqual(1);
          expect(match.rank).toBeGreaterThanOrEqual(0);
          expect(match.rank).toBeLessThanOrEqual(1);
          expect(match.reason.length).toBeGreaterThan(0);
        }
        expect(JSON.parse(JSON.stringify(prematcher.match(text)))).toEqual(
          JSON.parse(JSON.stringify(first)),
        );
      }),
      { numRuns: 200 },
    );
  });

  it('rejects thresholds that make no sense', () => {
    expect(() => new Prematcher(classifiable, { noBelow: 0.5, yesAbove: 0.4 })).toThrow(
      /noBelow \(0.5\) must be below yesAbove \(0.4\)/,
    );
    expect(() => new Prematcher(classifiable, { margin: 2 })).toThrow(/margin must be in \[0, 1\]/);
  });

  it('ranks a capability worded like every other one lower, by how much it is', () => {
    const capability = (name: string, queries: string[]) => ({
      name,
      description: name.replace('_', ' '),
      guide: {
        instructions: `Activate for ${name}.`,
        examples: queries.map((query) => ({ query, result: true })),
      },
    });
    const capabilities = new CapabilityRegistry([
      capability('small_talk', [
        'can you tell me something',
        'tell me about you',
        'what can you tell me',
        'can you help me',
        'tell me more about it',
      ]),
      capability('weather', ['can you tell me the weather in Paris', 'will it rain tomorrow']),
      capability('send_email', ['can you send an email to Bob', 'email the report to my manager']),
      capability('music', ['can you play some jazz', 'play the next song']),
    ]).all();
    const penalties = (hubWeight: number) =>
      Object.fromEntries(
        new Prematcher(capabilities, { discriminatorWeight: 0, hubWeight })
          .match('can you tell me')
          .matches.map((m) => [m.name, m.score - m.rank]),
      );
    for (const penalty of Object.values(penalties(0))) expect(penalty).toBe(0);
    const { small_talk, ...others } = penalties(0.5);
    for (const penalty of Object.values(others)) {
      expect(penalty).toBeGreaterThan(0);
      expect(penalty).toBeLessThan(small_talk!);
    }
  });

  it('has no capabilities to decide on in an empty registry', () => {
    expect(new Prematcher([]).match('anything').matches).toEqual([]);
  });
});

describe('Prematcher reading English', () => {
  const shop = new Prematcher(
    new CapabilityRegistry([
      {
        name: 'order_food',
        description: 'Orders meals for delivery.',
        guide: {
          instructions: 'Use for food orders.',
          examples: [
            { query: 'Order a pizza for dinner', result: true },
            { query: 'Get me sushi delivered tonight', result: true },
          ],
        },
      },
      {
        name: 'book_travel',
        description: 'Books trips.',
        guide: {
          instructions: 'Use for travel bookings.',
          examples: [
            { query: 'Book a flight to Rome', result: true },
            { query: 'Reserve a hotel room in Paris', result: true },
          ],
        },
      },
      {
        name: 'music',
        description: 'Plays songs.',
        guide: {
          instructions: 'Use for music.',
          examples: [{ query: 'Play some jazz', result: true }],
        },
      },
    ]).all(),
  );
  const best = (task: string) => [...shop.match(task).matches].sort((a, b) => b.rank - a.rank)[0]!;

  it('meets a word of the same meaning, and says which', () => {
    const match = best('Purchase a pizza');
    expect(match.name).toBe('order_food');
    expect(match.evidence).toContainEqual(
      expect.objectContaining({ word: 'purchase', matched: 'order', kind: 'concept' }),
    );
    expect(match.reason).toContain('"purchase" ~ "order"');
    expect(match.reason).toContain('as in "Order a pizza for dinner"');
  });

  it('meets another form of a word (plurals, tenses, irregular verbs)', () => {
    const match = best("I'm booking flights to Madrid");
    expect(match.name).toBe('book_travel');
    expect(match.evidence).toContainEqual(
      expect.objectContaining({ word: 'booking', matched: 'book', kind: 'form' }),
    );
    expect(match.evidence).toContainEqual(
      expect.objectContaining({ word: 'flights', matched: 'flight', kind: 'form' }),
    );
    expect(best('I bought a pizza yesterday').evidence).toContainEqual(
      expect.objectContaining({ word: 'bought', kind: 'concept' }),
    );
  });

  it('reads words as they are with english: false', () => {
    const plain = new Prematcher(classifiable, { features: { english: false } });
    const match = plain.match('Booking flights').matches;
    expect(match.every((m) => m.evidence.every((e) => e.kind === 'word'))).toBe(true);
  });

  it('gives each capability its own reason, with its own evidence', () => {
    const reasons = prematcher.match('Email Bob the weather forecast for tomorrow').matches;
    expect(new Set(reasons.map((m) => m.reason)).size).toBe(reasons.length);
    expect(reasons[1]!.reason).toContain(
      '"email", "bob" as in "Send an email to Bob about the meeting"',
    );
  });
});

describe('the README example registry (examples/capabilities.yaml)', () => {
  const example = CapabilityRegistry.fromFile(
    fileURLToPath(new URL('../../examples/capabilities.yaml', import.meta.url)),
  );
  const matcher = new Prematcher(example.all().filter((c) => !c.alwaysActive));

  it('guesses both capabilities "Email Bob the forecast" needs, without an LLM', () => {
    const matches = matcher.match('Email Bob the forecast').matches;
    const chosen = matches.filter((m) => m.value).map((m) => m.name);
    expect(chosen.sort()).toEqual(['current_weather', 'send_email']);
    const byName = Object.fromEntries(matches.map((m) => [m.name, m]));
    expect(byName.current_weather!.reason).toMatch(/"forecast" ~ "forecasts" in its description/);
    expect(byName.send_email!.reason).toMatch(/"email", "bob" as in "Send an email to Bob/);
    expect(new Set(matches.map((m) => m.reason)).size).toBe(matches.length);
  });

  it('guesses a second capability that explains what the best one leaves of the task', () => {
    const matches = matcher.match('Email the forecast to Bob').matches;
    const byName = Object.fromEntries(matches.map((m) => [m.name, m]));
    expect(matches.filter((m) => m.value).map((m) => m.name)).toEqual([
      'current_weather',
      'send_email',
    ]);
    expect(byName.send_email!.rank).toBeGreaterThan(byName.current_weather!.rank + 0.05);
    expect(byName.current_weather!.reason).toMatch(/explains what the best capability leaves/);
    expect(byName.current_weather!.reason).toMatch(/"forecast" ~ "forecasts"/);
  });

  it('guesses one capability for a task that needs one', () => {
    for (const [task, name] of [
      ['Remind me to pay the rent on Friday', 'reminders'],
      ["What's the weather like in Rome?", 'current_weather'],
      ['Find reviews of the new iPhone', 'web_search'],
    ] as const) {
      const chosen = matcher.match(task).matches.filter((m) => m.value);
      expect(chosen.map((m) => m.name)).toEqual([name]);
    }
  });
});
