import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { explainDecision } from '../console/explain.js';
import { InputError } from '../core/errors.js';
import { TIERS, type Tier } from '../tier/tiers.js';
import { checkRequest, type TriageRequest } from '../triage-request.js';
import type { ParsedBody } from './body.js';
import { consoleAssets } from './console-assets.js';
import { LiveFeed } from './console-live.js';
import { TrafficRecorder } from './console-recorder.js';
import { HttpError } from './errors.js';
import { isLoopback } from './exposure.js';
import type { ServerContext } from './server-context.js';

/**
 * The web console (docs/console.md): the page at `console.path` (default `/`), its files under
 * `/console/assets/`, and its API under `/console/api/` (the playground's decisions, the live
 * feed). The page and its files hold no data and are open; the API is behind the client keys
 * when keys are configured. On by default for requests that arrive on a loopback interface, or
 * from anywhere when client keys are configured; `console.enabled` decides otherwise.
 */

/** The console's section of the configuration, validated. */
export interface ConsoleSection {
  /** On, off, or absent: on for loopback requests, or everywhere when client keys are set. */
  readonly enabled?: boolean;
  /** Where the page is served. */
  readonly path: string;
}

/** The longest the playground waits for the LLM when asked to use it, in milliseconds. */
const PLAYGROUND_DEADLINE_MS = 5_000;

/** Route option marking a route that needs no client key (see app.ts `guard`). */
export const OPEN_ROUTE = { open: true } as const;

/** The recorder the chat endpoint writes to, for a server whose console is on; else none. */
export function consoleRecorder(section: ConsoleSection | undefined): TrafficRecorder | undefined {
  return section?.enabled === false ? undefined : new TrafficRecorder();
}

/** Registers the console's routes (nothing when it is off). */
export function registerConsole(
  app: FastifyInstance,
  ctx: ServerContext,
  options: { readonly keysEnabled: boolean; readonly section: ConsoleSection | undefined },
): void {
  const recorder = ctx.recorder;
  if (recorder === undefined) return;
  const section = options.section ?? { path: '/' };
  // Auto: loopback requests only, unless keys guard the API.
  const allowed =
    section.enabled === true || options.keysEnabled
      ? () => true
      : (request: FastifyRequest) => isLoopback(request.socket.localAddress ?? '');
  const feed = new LiveFeed(recorder, { promptLogging: ctx.config.server.log.prompts });
  app.addHook('preClose', (done) => {
    feed.closeAll();
    done();
  });
  const refuse = (request: FastifyRequest) => {
    if (!allowed(request)) {
      throw new HttpError(404, 'unknown_route', `no route ${request.method} ${request.url}`, {
        type: 'not_found_error',
      });
    }
  };

  const file = (name: string) => async (request: FastifyRequest, reply: FastifyReply) => {
    refuse(request);
    const asset = (await consoleAssets()).get(name)!;
    return reply
      .header('content-type', asset.contentType)
      .header('cache-control', 'no-cache')
      .header('x-content-type-options', 'nosniff')
      .header(
        'content-security-policy',
        "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'",
      )
      .send(asset.body);
  };
  app.get(section.path, { config: OPEN_ROUTE }, file('index.html'));
  app.get('/console/assets/console.js', { config: OPEN_ROUTE }, file('console.js'));

  app.get('/console/api/info', async (request) => {
    refuse(request);
    return {
      tiers: Object.fromEntries(
        TIERS.map((tier) => [tier, ctx.catalog.modelsOf(tier).map((m) => m.id)]),
      ),
      parts: {
        tier: ctx.triage.tier !== undefined,
        injection: ctx.triage.injection !== undefined,
        context: ctx.triage.context !== undefined,
        capabilities: ctx.triage.capabilities !== undefined,
      },
      llm: ctx.triage.llm !== undefined,
      injectionPolicy: ctx.injection.policy,
      promptLogging: ctx.config.server.log.prompts,
    };
  });

  app.post('/console/api/decide', async (request) => {
    refuse(request);
    const { triageRequest, useLlm } = playgroundInput(
      (request.body as ParsedBody | undefined)?.json,
    );
    let decision: ReturnType<typeof ctx.triage.classify>;
    try {
      decision = ctx.triage.classify(triageRequest);
      if (useLlm) {
        decision = await ctx.triage.decide(triageRequest, {
          from: decision,
          deadlineMs: PLAYGROUND_DEADLINE_MS,
        });
      }
    } catch (error) {
      if (error instanceof InputError) throw new HttpError(400, error.code, error.message);
      throw error;
    }
    return explainDecision(ctx.triage, triageRequest, decision, {
      chainOf: (tiers) =>
        ctx.catalog.targetsOf(tiers as readonly Tier[]).map((t) => ({
          tier: t.tier,
          provider: t.model.provider,
          model: t.model.model,
        })),
    });
  });

  app.get('/console/api/events', (request, reply) => {
    refuse(request);
    reply.hijack();
    feed.open(reply.raw);
  });
}

/** The playground's body: `{ prompt }` or `{ request }` (a chat request), and `llm`. */
function playgroundInput(body: unknown): { triageRequest: TriageRequest; useLlm: boolean } {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new HttpError(400, 'invalid_body', 'body must be a JSON object');
  }
  const { prompt, request, llm } = body as Record<string, unknown>;
  if ((prompt === undefined) === (request === undefined)) {
    throw new HttpError(400, 'invalid_body', 'send either prompt (a string) or request');
  }
  if (prompt !== undefined && typeof prompt !== 'string') {
    throw new HttpError(400, 'invalid_body', 'prompt must be a string', { param: 'prompt' });
  }
  const triageRequest = (prompt ?? request) as TriageRequest;
  try {
    checkRequest(triageRequest);
  } catch (error) {
    if (error instanceof InputError) throw new HttpError(400, error.code, error.message);
    throw error;
  }
  return { triageRequest, useLlm: llm === true };
}
