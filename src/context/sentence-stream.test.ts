import fc from 'fast-check';
import { request } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeLlmServer, startFakeLlm } from '../testing/index.js';
import { SentenceStream } from './sentence-stream.js';
import { sentenceTexts } from './sentence-texts.test-helpers.js';
import { splitSentences } from './sentences.js';

async function* chunks(...parts: string[]): AsyncGenerator<string> {
  for (const part of parts) yield part;
}

async function collect(stream: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const sentence of stream) out.push(sentence);
  return out;
}

/** `text` cut at the given offsets. */
function cut(text: string, offsets: readonly number[]): string[] {
  const points = [...new Set(offsets.map((o) => o % (text.length + 1)))].sort((a, b) => a - b);
  const parts: string[] = [];
  let start = 0;
  for (const point of points) {
    parts.push(text.slice(start, point));
    start = point;
  }
  parts.push(text.slice(start));
  return parts;
}

describe('SentenceStream', () => {
  it('puts back together sentences split across chunks, abbreviations and decimals included', async () => {
    const stream = new SentenceStream(
      chunks(
        'Dr',
        '. Smith meas',
        'ured 3',
        '.',
        '14 units',
        '. It was e',
        '.g. large. Th',
        'e end',
      ),
    );
    expect(await collect(stream)).toEqual([
      'Dr. Smith measured 3.14 units.',
      'It was e.g. large.',
      'The end',
    ]);
    expect(stream.emitted).toBe(3);
    expect(stream.limited).toBe(false);
  });

  it('emits a sentence as soon as it is known to be complete', async () => {
    const seen: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    async function* slow() {
      yield 'First one. Sec';
      await gate;
      yield 'ond one.';
    }
    const iterator = new SentenceStream(slow())[Symbol.asyncIterator]();
    const first = await iterator.next();
    seen.push(first.value as string);
    expect(seen).toEqual(['First one.']); // before the second chunk arrived
    release();
    expect((await iterator.next()).value).toBe('Second one.');
    expect((await iterator.next()).done).toBe(true);
  });

  it('stops after maxSentences, says so, and closes the source', async () => {
    let closed = false;
    let pulled = 0;
    async function* source() {
      try {
        for (const part of ['One. Two', '. Three. ', 'Four. ', 'Five.']) {
          pulled++;
          yield part;
        }
      } finally {
        closed = true;
      }
    }
    const limits: number[] = [];
    const stream = new SentenceStream(source(), {
      maxSentences: 2,
      onLimit: (emitted) => limits.push(emitted),
    });
    expect(await collect(stream)).toEqual(['One.', 'Two.']);
    expect(stream).toMatchObject({ emitted: 2, limited: true });
    expect(limits).toEqual([2]);
    expect(closed).toBe(true);
    expect(pulled).toBe(2);
  });

  it('does not say it was limited when the text had no more sentences', async () => {
    const stream = new SentenceStream(chunks('One. Two'), { maxSentences: 2 });
    expect(await collect(stream)).toEqual(['One.', 'Two']);
    expect(stream.limited).toBe(false);
  });

  it('says it was limited when the cap dropped sentences that came with the last chunk', async () => {
    const limits: number[] = [];
    const stream = new SentenceStream(chunks('Word\n2)'), {
      maxSentences: 1,
      onLimit: (emitted) => limits.push(emitted),
    });
    expect(await collect(stream)).toEqual(['Word']);
    expect(stream.limited).toBe(true);
    expect(limits).toEqual([1]);
  });

  it('rejects a cap below 1 and a second iteration', () => {
    expect(() => new SentenceStream(chunks(), { maxSentences: 0 })).toThrow(RangeError);
    const stream = new SentenceStream(chunks('a'), { maxSentences: null });
    stream[Symbol.asyncIterator]();
    expect(() => stream[Symbol.asyncIterator]()).toThrow(TypeError);
  });

  it('passes on an error of the source', async () => {
    async function* broken() {
      yield 'One. Two';
      throw new Error('connection reset');
    }
    const seen: string[] = [];
    await expect(
      (async () => {
        for await (const sentence of new SentenceStream(broken())) seen.push(sentence);
      })(),
    ).rejects.toThrow('connection reset');
    expect(seen).toEqual(['One.']);
  });

  describe('properties', () => {
    const offsets = fc.array(fc.nat(), { maxLength: 12 });

    it('gives the sentences of splitSentences, however the text is chunked', async () => {
      await fc.assert(
        fc.asyncProperty(sentenceTexts, offsets, async (text, at) => {
          expect(await collect(new SentenceStream(chunks(...cut(text, at))))).toEqual(
            splitSentences(text),
          );
        }),
        { numRuns: 500 },
      );
    });

    it('with a cap, gives the first N of them, and is limited whenever there were more', async () => {
      await fc.assert(
        fc.asyncProperty(
          sentenceTexts,
          offsets,
          fc.integer({ min: 1, max: 4 }),
          async (text, at, max) => {
            const stream = new SentenceStream(chunks(...cut(text, at)), { maxSentences: max });
            const all = splitSentences(text);
            expect(await collect(stream)).toEqual(all.slice(0, max));
            if (all.length > max) expect(stream.limited).toBe(true);
            if (all.length < max) expect(stream.limited).toBe(false);
          },
        ),
        { numRuns: 500 },
      );
    });
  });
});

describe('SentenceStream over a real streamed LLM answer', () => {
  let fake: FakeLlmServer;
  beforeEach(async () => {
    fake = await startFakeLlm();
  });
  afterEach(async () => {
    await fake.close();
  });

  /** The text deltas of an Ollama NDJSON chat stream, read from a real HTTP response. */
  async function* ollamaDeltas(signal: AbortSignal): AsyncGenerator<string> {
    const response = await request(`${fake.url}/api/chat`, {
      method: 'POST',
      body: JSON.stringify({
        model: 'fake-model',
        messages: [{ role: 'user', content: 'Define entropy' }],
      }),
      headers: { 'content-type': 'application/json' },
      signal,
    });
    let pending = '';
    for await (const data of response.body) {
      pending += data.toString();
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        if (line.trim() !== '')
          yield (JSON.parse(line) as { message: { content: string } }).message.content;
      }
    }
  }

  it('stops the upstream response after the cap, so no more tokens are paid for', async () => {
    const answer =
      'Entropy measures disorder, e.g. in a gas at 3.5 K. It always grows in a closed system. ' +
      'Dr. Boltzmann linked it to probability. '.repeat(20);
    fake.script({ text: answer, intervalMs: 5 });
    const controller = new AbortController();
    const stream = new SentenceStream(ollamaDeltas(controller.signal), {
      maxSentences: 2,
      onLimit: () => controller.abort(),
    });
    expect(await collect(stream)).toEqual([
      'Entropy measures disorder, e.g. in a gas at 3.5 K.',
      'It always grows in a closed system.',
    ]);
    expect(stream.limited).toBe(true);
    await fake.whenAborted(1);
    expect(fake.chatRequests[0]!.outcome).toBe('client-aborted');
  });
});
