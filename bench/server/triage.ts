import { parseServerConfig } from '../../src/server/config.js';
import { createTriageServer } from '../../src/server/index.js';
import { reportToParent } from './child.js';

/**
 * Child process of `npm run bench:server`: the routing server (the real tier router, no LLM check)
 * in front of the fake upstream whose port is the first argument, configured as a user would
 * (logs on, at the level given as second argument, to standard output, which the parent
 * discards), reporting its port to the parent.
 */
const [upstreamPort, level = 'info'] = process.argv.slice(2);
const config = parseServerConfig({
  server: { log: { level } },
  providers: { fake: { baseUrl: `http://127.0.0.1:${upstreamPort}/v1` } },
  tiers: {
    SIMPLE: ['fake/small'],
    MEDIUM: ['fake/mid'],
    COMPLEX: ['fake/large'],
    REASONING: ['fake/thinker'],
  },
});
const server = createTriageServer({ config });
const url = await server.listen({ port: 0 });
reportToParent({ port: Number(new URL(url).port) }, () => server.close());
