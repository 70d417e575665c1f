import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTriageServer, type TriageServer } from './app.js';
import { parseServerConfig } from './config.js';
import { testTierRouter } from './server.test-helpers.js';

/** One event of the upstream's stream: 1 KiB, numbered, so any loss or reordering shows. */
const eventOf = (i: number) => `data: ${String(i).padStart(8, '0')} ${'x'.repeat(1007)}\n\n`;
const EVENTS = 48 * 1024; // 48 MiB in all: far more than every socket buffer on the way together

/**
 * An upstream that streams `EVENTS` events as fast as its client takes them, honouring
 * backpressure itself, and counts what it has written: if the proxy kept reading from it while
 * its own client was not reading, the count would run ahead.
 */
function startStreamingUpstream(): Promise<{
  server: Server;
  port: number;
  written: () => number;
}> {
  let written = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      let i = 0;
      const pump = () => {
        while (i < EVENTS) {
          const event = eventOf(i++);
          written += event.length;
          if (!res.write(event)) {
            res.once('drain', pump);
            return;
          }
        }
        res.end();
      };
      pump();
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, port: (server.address() as AddressInfo).port, written: () => written }),
    ),
  );
}

describe('a stream to a client that reads slowly', () => {
  let upstream: Awaited<ReturnType<typeof startStreamingUpstream>>;
  let triage: TriageServer;
  let url: string;
  beforeAll(async () => {
    upstream = await startStreamingUpstream();
    const config = parseServerConfig({
      server: { log: { level: 'silent' } },
      providers: { up: { baseUrl: `http://127.0.0.1:${upstream.port}/v1` } },
      tiers: { SIMPLE: ['up/m'], MEDIUM: ['up/m'], COMPLEX: ['up/m'], REASONING: ['up/m'] },
    });
    triage = createTriageServer({ config, tiers: testTierRouter(), processMetrics: false });
    url = await triage.listen({ port: 0 });
  });
  afterAll(async () => {
    await triage.close();
    await new Promise((resolve) => upstream.server.close(resolve));
  });

  it('holds the upstream back while the client is not reading, then delivers every byte in order', async () => {
    const res = await new Promise<IncomingMessage>((resolve, reject) => {
      const req = httpRequest(`${url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
      });
      req.on('response', resolve).on('error', reject);
      req.end(
        JSON.stringify({
          model: 'auto',
          stream: true,
          messages: [{ role: 'user', content: 'go' }],
        }),
      );
    });
    res.pause();
    // Long enough for an unthrottled proxy to read the whole stream from the upstream.
    await new Promise((resolve) => setTimeout(resolve, 400));
    const total = EVENTS * eventOf(0).length;
    expect(upstream.written()).toBeLessThan(total / 2);

    const chunks: Buffer[] = [];
    for await (const chunk of res) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('latin1');
    expect(text.length).toBe(total);
    expect(upstream.written()).toBe(total);
    for (const i of [0, 1, 4095, EVENTS / 2, EVENTS - 1]) {
      expect(text.slice(i * 1024, (i + 1) * 1024)).toBe(eventOf(i));
    }
  });
});
