import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  LogController,
} from 'fastify';
import type { DestinationStream, Logger } from 'pino';
import { Exchange } from './attempt.js';
import { ClientKeys } from './auth.js';
import { chatRequestOf, parseJsonBody } from './body.js';
import { Catalog } from './catalog.js';
import { clientKeys, parseServerConfig, type ServerConfig } from './config.js';
import { TIER_NAMES, type TierRouterPort } from './decide.js';
import { errorBody, errorTypeOf, HttpError } from './errors.js';
import { decisionHeaders } from './headers.js';
import { createLogger, lastUserText } from './logging.js';
import { ServerMetrics } from './metrics.js';
import { noUpstreamError } from './no-upstream.js';
import { proxyChat } from './proxy.js';
import { Router, type Routing } from './routing.js';
import { Upstreams } from './upstreams.js';

const VERSION = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  }
).version;

/** What {@link createTriageServer} needs. */
export interface TriageServerOptions {
  /** The tier router. */
  readonly tiers: TierRouterPort;
  /** A validated configuration ({@link parseServerConfig}); default: no upstream, all defaults. */
  readonly config?: ServerConfig;
  /** Where provider and client keys are read. Default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Where log lines go. Default standard output. */
  readonly logDestination?: DestinationStream;
  /** Collect Node process metrics (CPU, memory, event loop) too. Default true. */
  readonly processMetrics?: boolean;
}

/** A routing server, built and ready to listen. */
export interface TriageServer {
  readonly app: FastifyInstance;
  readonly config: ServerConfig;
  readonly metrics: ServerMetrics;
  readonly logger: Logger;
  /** Starts listening (on the configured host and port unless given); resolves to the base URL. */
  listen(options?: { host?: string; port?: number }): Promise<string>;
  /** Stops accepting requests, waits for those in flight, and closes upstream connections. */
  close(): Promise<void>;
}

const CHAT_PATHS = ['/v1/chat/completions', '/chat/completions'];
/** Routes open without a client key, so that load balancers can probe them. */
const OPEN_ROUTES = new Set(['/health']);

/**
 * Builds the OpenAI-compatible routing server (see docs/server.md): `POST /v1/chat/completions`
 * decided and proxied to the configured upstreams, `POST /v1/route` for the decision alone,
 * `GET /v1/models`, `GET /health` and `GET /metrics`.
 */
export function createTriageServer(options: TriageServerOptions): TriageServer {
  const env = options.env ?? process.env;
  const config = options.config ?? parseServerConfig({}, { env });
  const logger = createLogger({ ...config.server.log, destination: options.logDestination });
  const metrics = new ServerMetrics({ processMetrics: options.processMetrics ?? true });
  const catalog = new Catalog(config);
  const upstreams = new Upstreams(config, env);
  const router = new Router(catalog, options.tiers, config.server.unknownModel);
  const keys = new ClientKeys(clientKeys(config, env));
  const { decisionHeaders: withHeaders, log } = config.server;

  const app = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    logController: new LogController({ disableRequestLogging: true }),
    // No child logger per request (a measurable cost on the hot path): request lines carry
    // their request id themselves.
    childLoggerFactory: (parent) => parent,
    bodyLimit: config.server.bodyLimitBytes,
    requestIdHeader: false,
    return503OnClosing: true,
  });

  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, raw, done) => {
    try {
      done(null, parseJsonBody(raw as Buffer));
    } catch (error) {
      done(error as HttpError, undefined);
    }
  });

  if (keys.enabled) {
    app.addHook('onRequest', (request, reply, done) => {
      if (OPEN_ROUTES.has(request.routeOptions.url ?? '') || keys.allows(request.headers)) {
        return done();
      }
      metrics.errors.inc({ kind: 'unauthorized' });
      void reply
        .code(401)
        .header('www-authenticate', 'Bearer')
        .send(
          errorBody(
            'a valid client key is required: send it as Authorization: Bearer <key>',
            'authentication_error',
            'invalid_api_key',
          ),
        );
    });
  }

  app.setErrorHandler((error: FastifyError | HttpError, request, reply) =>
    sendError(error, request, reply),
  );
  app.setNotFoundHandler((request, reply) => {
    metrics.errors.inc({ kind: 'not_found' });
    void reply
      .code(404)
      .send(
        errorBody(
          `no route ${request.method} ${request.url.split('?')[0]}`,
          'not_found_error',
          'unknown_route',
        ),
      );
  });

  function sendError(
    error: FastifyError | HttpError,
    request: FastifyRequest,
    reply: FastifyReply,
  ) {
    const http = toHttpError(error);
    metrics.errors.inc({ kind: http.code });
    if (http.statusCode >= 500 && !(error instanceof HttpError)) {
      // An unexpected failure: log the error's type and stack, never the request body.
      request.log.error({ err: error, route: request.routeOptions.url }, 'request failed');
    }
    if (reply.raw.destroyed) return;
    void reply.code(http.statusCode).headers(http.headers).send(http.body());
  }

  /**
   * Routes a request; `undefined` when the client left while the decision waited for its LLM
   * check (the reply is then abandoned: there is no one to answer).
   */
  async function routeOf(
    body: Parameters<Router['route']>[0],
    exchange: Exchange,
    reply: FastifyReply,
  ): Promise<Routing | undefined> {
    const pending = router.route(body, exchange);
    let routing: Routing;
    if (pending instanceof Promise) {
      try {
        routing = await pending;
      } catch (error) {
        if (!exchange.gone) throw error;
        reply.hijack();
        metrics.errors.inc({ kind: 'client_closed' });
        return undefined;
      }
    } else routing = pending;
    metrics.decided(routing);
    return routing;
  }

  for (const path of CHAT_PATHS) {
    app.post(path, async (request, reply) => {
      const started = performance.now();
      const { body, raw } = chatRequestOf(request.body);
      const exchange = new Exchange(reply.raw);
      const routing = await routeOf(body, exchange, reply);
      if (routing === undefined) return;
      if (routing.targets.length === 0) {
        metrics.requests.inc({
          endpoint: 'chat',
          tier: routing.decision.tier,
          model: 'none',
          status: 503,
        });
        throw noUpstreamError(
          routing,
          withHeaders ? stringHeaders(decisionHeaders(routing, undefined, 0)) : {},
        );
      }
      reply.hijack();
      metrics.inFlight.inc();
      let result: Awaited<ReturnType<typeof proxyChat>> | undefined;
      try {
        result = await proxyChat(exchange, routing, body, raw, {
          upstreams,
          decisionHeaders: withHeaders,
          onFailure: (target, failure, isLast) => metrics.failed(target, failure, isLast),
        });
      } catch (error) {
        request.log.error({ err: error }, 'proxying failed');
        metrics.errors.inc({ kind: 'internal' });
        if (!reply.raw.headersSent) {
          reply.raw.writeHead(500, { 'content-type': 'application/json' });
          reply.raw.end(JSON.stringify(errorBody('internal error', 'server_error', 'internal')));
        } else reply.raw.destroy();
      } finally {
        metrics.inFlight.dec();
      }
      const model = result?.answeredBy?.model.id ?? 'none';
      const status = result?.status ?? 500;
      metrics.requests.inc({
        endpoint: 'chat',
        tier: routing.decision.tier,
        model,
        // 499, as nginx records it: the client closed the connection before the answer.
        status: status === 0 ? 499 : status,
      });
      if (result?.outcome.kind === 'answered') {
        metrics.upstreamLatency.observe(
          { model, kind: result.outcome.streamed ? 'stream' : 'json' },
          result.outcome.firstByteMs / 1000,
        );
        if (result.outcome.interrupted) metrics.interrupted.inc({ model });
      }
      if (logger.isLevelEnabled('info')) {
        request.log.info(
          {
            reqId: request.id,
            tier: routing.decision.tier,
            source: routing.decision.source,
            confidence: routing.decision.confidence,
            model,
            status: status === 0 ? 'client_closed' : status,
            stream: body.stream === true,
            fallbacks: result?.failures.map(({ target, failure }) => ({
              model: target.model.id,
              reason: failure.reason,
              status: failure.status,
            })),
            ...(result?.outcome.kind === 'answered' && result.outcome.interrupted
              ? { interrupted: result.outcome.interrupted }
              : {}),
            decideMs: round(routing.decideMs),
            ms: round(performance.now() - started),
            ...(log.prompts ? { prompt: lastUserText(body) } : {}),
          },
          'chat completion',
        );
      }
    });
  }

  app.post('/v1/route', async (request, reply) => {
    const { body } = chatRequestOf(request.body);
    const exchange = new Exchange(reply.raw);
    const routing = await routeOf(body, exchange, reply);
    if (routing === undefined) return;
    const first = routing.targets[0];
    metrics.requests.inc({
      endpoint: 'route',
      tier: routing.decision.tier,
      model: first?.model.id ?? 'none',
      status: 200,
    });
    return routeResponse(routing);
  });

  app.get('/v1/models', async () => ({
    object: 'list',
    data: [
      ...options.tiers.modelIds.map((id) => modelEntry(id, 'triage')),
      ...catalog.listed.map((m) => modelEntry(m.id, m.ownedBy)),
    ],
  }));

  app.get('/health', async () => ({
    status: 'ok',
    version: VERSION,
    tiers: Object.fromEntries(TIER_NAMES.map((tier) => [tier, catalog.modelsOf(tier).length])),
  }));

  app.get('/metrics', async (_request, reply) => {
    const text = await metrics.render();
    return reply.type(metrics.contentType).send(text);
  });

  return {
    app,
    config,
    metrics,
    logger,
    async listen(at = {}) {
      await app.listen({
        host: at.host ?? config.server.host,
        port: at.port ?? config.server.port,
      });
      const address = app.server.address() as AddressInfo;
      const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      return `http://${host}:${address.port}`;
    },
    async close() {
      await app.close();
      await upstreams.close();
      await new Promise<void>((resolve) => logger.flush(() => resolve()));
    },
  };
}

/** The body of `POST /v1/route`. */
function routeResponse(routing: Routing) {
  const { decision, targets } = routing;
  return {
    tier: decision.tier,
    model: targets[0]?.model.id ?? null,
    chain: targets.map((t) => ({ tier: t.tier, provider: t.model.provider, model: t.model.model })),
    tiers: decision.chain,
    forced: decision.forced,
    confidence: decision.confidence,
    ...(decision.score === undefined ? {} : { score: decision.score }),
    signals: decision.signals,
    source: decision.source,
    llm: {
      checked: decision.llmChecked,
      overrode: decision.llmOverrode,
      ms: round(decision.llmMs),
    },
    decide_ms: round(routing.decideMs),
  };
}

function modelEntry(id: string, ownedBy: string) {
  return { id, object: 'model', created: 0, owned_by: ownedBy };
}

function toHttpError(error: FastifyError | HttpError): HttpError {
  if (error instanceof HttpError) return error;
  const status = error.statusCode ?? 500;
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    return new HttpError(413, 'body_too_large', 'request body is larger than the server accepts');
  }
  if (status < 500) {
    // Fastify's own client errors (bad content length, …): their messages hold no body text.
    return new HttpError(status, 'bad_request', error.message, { type: errorTypeOf(status) });
  }
  return new HttpError(500, 'internal', 'internal error');
}

function stringHeaders(headers: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) out[name] = String(value);
  return out;
}

function round(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}
