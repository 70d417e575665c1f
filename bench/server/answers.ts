import type { FakeRequest } from '../../src/testing/fake-types.js';
import { openAiWire } from '../../src/testing/wire-openai.js';
import { estimateTokens } from '../../src/testing/wire-shared.js';

/**
 * The answers of the benchmarks' fake upstream, encoded once by the test suite's wire formats:
 * the same short text every time, whole or streamed, in the OpenAI or the Anthropic format.
 */
const TEXT = 'A short answer of about a dozen words, as a small model would give.';

/**
 * The answer to a request, `stream` or not, in the OpenAI (or the Anthropic) wire format, as the
 * pieces the upstream writes (one event each when streamed); with `includeUsage`, a stream that
 * was asked for its usage.
 */
export function encodedAnswer(
  stream: boolean,
  wire = openAiWire,
  includeUsage = false,
): readonly Buffer[] {
  const request: FakeRequest = {
    seq: 0,
    method: 'POST',
    path: '/v1/chat/completions',
    headers: {},
    body: includeUsage ? { stream, stream_options: { include_usage: true } } : { stream },
    rawBody: '',
    format: 'openai',
    model: 'small',
    messages: [],
    prompt: '',
    stream,
    outcome: 'pending',
  };
  const usage = { inputTokens: 60, outputTokens: estimateTokens(TEXT) };
  const body = wire.encode({ request, model: 'small', text: TEXT, isJson: false, usage });
  return body.pieces.map((piece) => Buffer.from(piece));
}
