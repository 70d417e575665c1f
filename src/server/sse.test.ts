import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EventFramer, lastEventEnd } from './sse.js';

const event = fc
  .tuple(fc.string({ unit: 'grapheme', maxLength: 40 }), fc.constantFrom('\n\n', '\r\n\r\n'))
  .map(([data, end]) => `data: ${data.replace(/[\r\n]/g, ' ')}${end}`);

/** Cuts bytes at the given fractions. */
function cut(bytes: Buffer, fractions: number[]): Buffer[] {
  const offsets = [...new Set(fractions.map((f) => Math.floor(f * bytes.length)))].sort(
    (a, b) => a - b,
  );
  const pieces: Buffer[] = [];
  let from = 0;
  for (const at of [...offsets, bytes.length]) {
    pieces.push(bytes.subarray(from, at));
    from = at;
  }
  return pieces;
}

describe('lastEventEnd', () => {
  it('is the offset just past the last blank line, LF or CRLF, wherever it is', () => {
    const reference = (text: string) => {
      const lf = text.lastIndexOf('\n\n');
      const crlf = text.lastIndexOf('\r\n\r\n');
      return Math.max(lf < 0 ? -1 : lf + 2, crlf < 0 ? -1 : crlf + 4);
    };
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('\n', '\r', 'a', ':'), { maxLength: 12 }).map((c) => c.join('')),
        (text) => {
          expect(lastEventEnd(Buffer.from(text))).toBe(reference(text));
        },
      ),
    );
  });
});

describe('EventFramer', () => {
  it('gives back exactly the bytes it was given, however they were cut', () => {
    fc.assert(
      fc.property(
        fc.array(event, { maxLength: 12 }),
        fc.string({ maxLength: 10 }),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 8 }),
        fc.integer({ min: 1, max: 64 }),
        (events, tail, fractions, maxPending) => {
          const bytes = Buffer.from(events.join('') + tail);
          const framer = new EventFramer(maxPending);
          const out: Buffer[] = [];
          for (const piece of cut(bytes, fractions)) {
            const ready = framer.push(piece);
            if (ready) out.push(ready);
          }
          const rest = framer.flush();
          if (rest) out.push(rest);
          expect(Buffer.concat(out).equals(bytes)).toBe(true);
        },
      ),
    );
  });

  it('only lets complete events through while a stream is under way', () => {
    fc.assert(
      fc.property(
        fc.array(event, { minLength: 1, maxLength: 12 }),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 8 }),
        (events, fractions) => {
          const framer = new EventFramer();
          for (const piece of cut(Buffer.from(events.join('')), fractions)) {
            const ready = framer.push(piece);
            if (ready) expect(lastEventEnd(ready)).toBe(ready.length);
          }
        },
      ),
    );
  });

  it('holds back a partial event, then releases it with the rest of its event', () => {
    const framer = new EventFramer();
    expect(framer.push(Buffer.from('data: {"a":1}\n\ndata: {"b"'))?.toString()).toBe(
      'data: {"a":1}\n\n',
    );
    expect(framer.push(Buffer.from(':2}\n'))).toBeUndefined();
    expect(framer.push(Buffer.from('\n'))?.toString()).toBe('data: {"b":2}\n\n');
    expect(framer.flush()).toBeUndefined();
  });
});
