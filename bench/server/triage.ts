import { parseServerConfig } from '../../src/server/config.js';
import { createTriageServer } from '../../src/server/index.js';
import { reportToParent } from './child.js';

/**
 * Child process of `npm run bench:server`: the routing server (the real tier router, no LLM check)
 * in front of the fake upstream whose port is the first argument, configured as a user would
 * (logs on, at the level given as second argument, to standard output, which the parent
 * discards), reporting its port to the parent. A third argument `console-off` turns the web
 * console off. A fourth argument, `memory` or a `redis://` URL, configures limits and budgets that
 * every request is checked against and counted in (never reached), with the state in memory or in
 * that Redis (the shared-state phase, `state.ts`).
 */
const [upstreamPort, level = 'info', consoleMode = 'console-on', state] = process.argv.slice(2);
/** Limits never reached, so that every request takes the full path of the admission and spend. */
const limits = {
  costs: {
    prices: { 'fake/small': { input: 0.5, output: 1.5 }, 'fake/mid': { input: 1, output: 3 } },
  },
  limits: {
    default: {
      requestsPerMinute: 1_000_000_000,
      tokensPerMinute: 1_000_000_000_000,
      spendPerDayUsd: 1_000_000,
      spendPerMonthUsd: 1_000_000,
    },
  },
};
const config = parseServerConfig({
  server: { log: { level } },
  // The web console is on by default (its recorder writes every request); `console-off` turns it
  // off, for the phase that measures what it costs when no page is open.
  ...(consoleMode === 'console-off' ? { console: { enabled: false } } : {}),
  ...(state === undefined ? {} : limits),
  ...(state?.startsWith('redis://') ? { state: { redis: { url: state } } } : {}),
  providers: {
    fake: { baseUrl: `http://127.0.0.1:${upstreamPort}/v1` },
    // The same fake upstream as an Anthropic one: chat requests to `claude-small` are translated
    // to Messages, and its stream back to chat-completion chunks (the translation phase).
    claude: { baseUrl: `http://127.0.0.1:${upstreamPort}/v1`, api: 'anthropic' },
  },
  tiers: {
    SIMPLE: ['fake/small'],
    MEDIUM: ['fake/mid'],
    COMPLEX: ['fake/large'],
    REASONING: ['fake/thinker', 'claude/claude-small'],
  },
});
const server = createTriageServer({ config });
const url = await server.listen({ port: 0 });
reportToParent({ port: Number(new URL(url).port) }, () => server.close());
