import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { reportToParent } from './child.js';

/**
 * Child process of `npm run bench:server`: the fake upstream every path calls. It shares a CPU
 * with the load generator, so it does as little as an OpenAI-compatible server can: it reads the
 * request, and answers with bytes prepared once, the same short text every time, as one
 * `chat.completion` object or (when the request asks for a stream) as one `chat.completion.chunk`
 * event per word written as fast as possible, then `[DONE]`. The test suite's fake LLM server
 * (`src/testing`) speaks the same wire format but parses and records every request: 2-3 times the
 * CPU per request, which, on a shared machine, is noise in what is measured.
 */
const TEXT = 'A short answer of about a dozen words, as a small model would give.';
const CREATED = Math.floor(Date.now() / 1000);

const completion = Buffer.from(
  JSON.stringify({
    id: 'chatcmpl-bench',
    object: 'chat.completion',
    created: CREATED,
    model: 'small',
    choices: [{ index: 0, message: { role: 'assistant', content: TEXT }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 60, completion_tokens: 14, total_tokens: 74 },
  }),
);

const chunk = (delta: Record<string, string>, finish: string | null) =>
  Buffer.from(
    `data: ${JSON.stringify({
      id: 'chatcmpl-bench',
      object: 'chat.completion.chunk',
      created: CREATED,
      model: 'small',
      choices: [{ index: 0, delta, finish_reason: finish }],
    })}\n\n`,
  );

const words = TEXT.split(' ');
const events: readonly Buffer[] = [
  chunk({ role: 'assistant', content: '' }, null),
  ...words.map((word, i) => chunk({ content: i === 0 ? word : ` ${word}` }, null)),
  chunk({}, 'stop'),
  Buffer.from('data: [DONE]\n\n'),
];

/** Whether the request body asks for a stream (the bodies the harness sends are compact JSON). */
const STREAM = Buffer.from('"stream":true');

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (data: Buffer) => chunks.push(data));
  req.on('end', () => {
    if (Buffer.concat(chunks).includes(STREAM)) {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      for (const event of events) res.write(event);
      res.end();
    } else {
      res.writeHead(200, {
        'content-type': 'application/json',
        'content-length': completion.length,
      });
      res.end(completion);
    }
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  reportToParent({ port: (server.address() as AddressInfo).port }, () => server.close());
});
