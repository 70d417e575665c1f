import { connect } from 'node:net';
import { Client } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chat, type Harness, startHarness } from './server.test-helpers.js';

/** Sends a chat request on `client` and reads its answer whole. */
async function send(client: Client, body: unknown) {
  const res = await client.request({
    method: 'POST',
    path: '/v1/chat/completions',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.statusCode, headers: res.headers, text: await res.body.text() };
}

describe('shutting down with requests in flight', () => {
  let h: Harness;
  let client: Client;
  let closed: Promise<void> | undefined;
  beforeEach(async () => {
    h = await startHarness({
      config: (baseUrl) => ({
        providers: { fake: { baseUrl, timeoutMs: 10_000, idleTimeoutMs: 10_000 } },
        tiers: { MEDIUM: ['fake/mid-a'] },
      }),
    });
    client = new Client(h.url);
    closed = undefined;
  });
  afterEach(async () => {
    await client.close();
    await (closed ?? h.server.close());
    await h.fake.close();
  });
  const shutDown = (graceMs: number) => {
    closed = h.server.close({ graceMs });
    return closed;
  };

  it('ends a stream cut by the end of the grace period with an error event and a clean end', async () => {
    h.fake.reply({ text: 'word '.repeat(200), intervalMs: 50 });
    const pending = send(client, chat('plain', { stream: true }));
    await h.fake.whenRequests(1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    await shutDown(300);
    const res = await pending; // a reset would reject here
    expect(res.status).toBe(200);
    const events = res.text.split('\n\n').filter(Boolean);
    expect(events.length).toBeGreaterThan(2);
    const last = JSON.parse((events.at(-1) as string).replace(/^data: /, ''));
    expect(last.error.code).toBe('server_shutting_down');
    const log = h.logs.lines
      .map((line) => JSON.parse(line))
      .find((l) => l.msg === 'chat completion');
    expect(log.status).toBe('server_closed');
    const metrics = await h.server.metrics.render();
    expect(metrics).toMatch(/triage_errors_total\{kind="server_shutting_down"\} 1/);
    expect(metrics).not.toMatch(/status="499"/);
  });

  it('answers 503 to a request still waiting for its upstream when the grace period ends', async () => {
    h.fake.reply({ hang: true });
    const pending = send(client, chat('plain'));
    await h.fake.whenRequests(1);
    await shutDown(200);
    const res = await pending;
    expect(res.status).toBe(503);
    expect(JSON.parse(res.text).error).toMatchObject({
      type: 'server_error',
      code: 'server_shutting_down',
    });
    const log = h.logs.lines
      .map((line) => JSON.parse(line))
      .find((l) => l.msg === 'chat completion');
    expect(log.status).toBe('server_closed');
  });

  it('answers 503 in OpenAI shape to a request that arrives while shutting down', async () => {
    h.fake.reply({ text: 'slow', delayMs: 400 });
    // A second request on a connection still busy with the first: the server reads it after
    // it began shutting down (an idle connection would be closed instead).
    const { port } = new URL(h.url);
    const socket = connect(Number(port), '127.0.0.1');
    const body = JSON.stringify(chat('plain'));
    const request =
      'POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
    let text = '';
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString();
    });
    const ended = new Promise((resolve) => socket.on('close', resolve));
    socket.write(request);
    await h.fake.whenRequests(1);
    const closing = shutDown(5_000);
    socket.write(request);
    await ended;
    await closing;
    const answers = text.split(/(?=HTTP\/1\.1 )/);
    expect(answers.map((a) => a.slice(0, 12))).toEqual(['HTTP/1.1 200', 'HTTP/1.1 503']);
    const late = answers[1] as string;
    expect(late.toLowerCase()).toContain('connection: close');
    expect(JSON.parse(late.slice(late.indexOf('\r\n\r\n') + 4)).error).toEqual({
      message: expect.stringContaining('shutting down'),
      type: 'server_error',
      param: null,
      code: 'server_shutting_down',
    });
  });
});
