import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from './server.test-helpers.js';

/** Writes `request` on a fresh connection and reads until the server closes it. */
function exchange(url: string, request: string): Promise<string> {
  const { port } = new URL(url);
  const socket = connect(Number(port), '127.0.0.1');
  socket.write(request);
  return new Promise((resolve) => {
    let text = '';
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('latin1');
    });
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(text));
  });
}

/** Status and parsed JSON body of a raw HTTP/1.1 answer. */
function parse(answer: string): { status: number; headers: string; body: unknown } {
  const split = answer.indexOf('\r\n\r\n');
  const head = answer.slice(0, split);
  return {
    status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]),
    headers: head.toLowerCase(),
    body: JSON.parse(answer.slice(split + 4)),
  };
}

const POST = 'POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n';

describe('errors at the HTTP level', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      config: (baseUrl) => ({
        server: { requestTimeoutMs: 300 },
        providers: { fake: { baseUrl } },
        tiers: { MEDIUM: ['fake/m'] },
      }),
    });
  });
  afterAll(() => h.close());

  it.each([
    [
      'headers larger than the server takes',
      `${POST}X-Big: ${'a'.repeat(20_000)}\r\nContent-Length: 2\r\n\r\n{}`,
      431,
      'headers_too_large',
    ],
    [
      'a request never finished',
      `${POST}Content-Length: 100\r\n\r\n{"model":`,
      408,
      'request_timeout',
    ],
    [
      'a malformed chunked body',
      `${POST}Transfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`,
      400,
      'invalid_http',
    ],
    [
      'both Content-Length and Transfer-Encoding',
      `${POST}Content-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n`,
      400,
      'invalid_http',
    ],
  ])('answers %s in OpenAI shape', async (_what, request, status, code) => {
    const answer = parse(await exchange(h.url, request));
    expect(answer.status).toBe(status);
    expect(answer.headers).toContain('content-type: application/json');
    expect(answer.body).toEqual({
      error: { message: expect.any(String), type: 'invalid_request_error', param: null, code },
    });
  });

  it('counts them by kind', async () => {
    const text = await h.server.metrics.render();
    expect(text).toMatch(/triage_errors_total\{kind="headers_too_large"\} 1/);
    expect(text).toMatch(/triage_errors_total\{kind="invalid_http"\} 2/);
  });
});
