import { EventFramer } from '../sse.js';

/** A stream translator with both paths: the general one on text, the fast one on bytes. */
export interface TwoPathTranslator {
  push(text: string): string;
  pushBytes(chunk: Buffer): Buffer;
  end(): string;
}

/**
 * What a new translator writes for `pieces` (complete events each), through its byte path or its
 * text path, its last bytes included.
 */
export function translatedBy(
  make: () => TwoPathTranslator,
  pieces: readonly Buffer[],
  bytes: boolean,
): Buffer {
  const stream = make();
  const out = pieces.map((piece) =>
    bytes ? stream.pushBytes(piece) : Buffer.from(stream.push(piece.toString('utf8'))),
  );
  return Buffer.concat([...out, Buffer.from(stream.end())]);
}

/**
 * The pieces the proxy's event framer hands on when `whole` arrives cut at `cuts` (any offsets:
 * taken modulo its length and sorted), the held-back rest included.
 */
export function framedPieces(whole: Buffer, cuts: readonly number[]): Buffer[] {
  const framer = new EventFramer();
  const pieces: Buffer[] = [];
  let from = 0;
  for (const cut of cuts.map((c) => c % (whole.length + 1)).sort((a, b) => a - b)) {
    const ready = framer.push(whole.subarray(from, cut));
    if (ready) pieces.push(ready);
    from = cut;
  }
  const ready = framer.push(whole.subarray(from));
  if (ready) pieces.push(ready);
  const rest = framer.flush();
  if (rest) pieces.push(rest);
  return pieces;
}

/**
 * Whether the byte path writes, for `events` arriving cut at `cuts`, the bytes the text path
 * writes for the whole stream in one piece.
 */
export function sameBytesHoweverCut(
  make: () => TwoPathTranslator,
  events: readonly string[],
  cuts: readonly number[],
): boolean {
  const whole = Buffer.from(events.join(''));
  const pieces = framedPieces(whole, cuts);
  return translatedBy(make, pieces, true).equals(translatedBy(make, [whole], false));
}
