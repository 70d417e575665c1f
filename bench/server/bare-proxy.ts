import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool } from 'undici';
import { reportToParent } from './child.js';

/**
 * Child process of `npm run bench:server`: the floor of any Node proxy on this machine, for scale.
 * A bare `node:http` server that reads the body, parses it, sets the model, sends it upstream with
 * undici and writes the answer back: no routing, no classification, no fallback, metrics or logs.
 * Whatever triage adds beyond this is its own cost; what this adds over direct is the hop's.
 */
const [upstreamPort] = process.argv.slice(2);
const pool = new Pool(`http://127.0.0.1:${upstreamPort}`);
const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', async () => {
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
    const upstream = await pool.request({
      path: '/v1/chat/completions',
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...body, model: 'small' }),
    });
    res.writeHead(upstream.statusCode, {
      'content-type': String(upstream.headers['content-type']),
    });
    for await (const chunk of upstream.body) res.write(chunk);
    res.end();
  });
});
server.listen(0, '127.0.0.1', () => {
  reportToParent({ port: (server.address() as AddressInfo).port }, () => server.close());
});
