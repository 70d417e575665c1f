import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { anthropicWire } from '../../src/testing/wire-anthropic.js';
import { openAiWire } from '../../src/testing/wire-openai.js';
import { encodedAnswer } from './answers.js';
import { reportToParent } from './child.js';

/**
 * Child process of `npm run bench:server`: the fake upstream every path calls. It shares a CPU
 * with the load generator, so it does as little as an OpenAI-compatible server can: it reads the
 * request and answers with bytes encoded once (`answers.ts`: the test suite's OpenAI wire format),
 * the same short text every time, as one `chat.completion` object or, when the request asks for a stream,
 * as one `chat.completion.chunk` event per piece written as fast as possible, then `[DONE]`. A
 * stream asked with `stream_options.include_usage` gets what OpenAI then sends (`"usage":null` in
 * every chunk and a last chunk with the usage), so that a proxy asking for usage upstream does
 * the work a real upstream would give it. The test suite's fake LLM server (`src/testing`) also
 * parses and records every request: 2-3 times the CPU per request, which, on a shared machine, is
 * noise in what is measured.
 */
const completion = encodedAnswer(false)[0] as Buffer;
const events = encodedAnswer(true);
const eventsWithUsage = encodedAnswer(true, openAiWire, true);
/** The same answer as an Anthropic Messages stream (`/v1/messages`), for the translation phase. */
const anthropicEvents = encodedAnswer(true, anthropicWire);

/** Whether the request body asks for a stream (the bodies the harness sends are compact JSON). */
const STREAM = Buffer.from('"stream":true');
/** Whether a streamed request asks for its usage (the proxy asks for it upstream). */
const INCLUDE_USAGE = Buffer.from('"include_usage":true');

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (data: Buffer) => chunks.push(data));
  req.on('end', () => {
    const body = Buffer.concat(chunks);
    if (body.includes(STREAM)) {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const answer =
        req.url === '/v1/messages'
          ? anthropicEvents
          : body.includes(INCLUDE_USAGE)
            ? eventsWithUsage
            : events;
      for (const event of answer) res.write(event);
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
