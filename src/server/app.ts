import type { AddressInfo } from 'node:net';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyError,
  type FastifyInstance,
  LogController,
} from 'fastify';
import type { DestinationStream, Logger } from 'pino';
import { ContextRouter } from '../context/router.js';
import { type ConfiguredProvider, createProvider } from '../llm/config.js';
import { createTierRouter } from '../tier/router.js';
import { ClientKeys } from './auth.js';
import { parseJsonBody } from './body.js';
import { Catalog } from './catalog.js';
import { registerChat } from './chat-endpoint.js';
import {
  clientKeys,
  contextConfigOf,
  parseServerConfig,
  type ServerConfig,
  tierOptionsOf,
} from './config.js';
import type { TierRouterPort } from './decide.js';
import { errorBody, errorTypeOf, HttpError } from './errors.js';
import { InjectionScreen } from './injection-screen.js';
import { createLogger } from './logging.js';
import { ServerMetrics } from './metrics.js';
import { registerRoute } from './route-endpoint.js';
import { Router } from './routing.js';
import type { ServerContext } from './server-context.js';
import { registerService } from './service-endpoints.js';
import { tierRouterPort } from './tier-port.js';
import { Upstreams } from './upstreams.js';

/** What {@link createTriageServer} needs. */
export interface TriageServerOptions {
  /** The tier router; default: built from the configuration's `tier` and `llm` sections. */
  readonly tiers?: TierRouterPort;
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
  /** The LLM the checks ask when a local classifier is unsure (`llm` in the configuration). */
  readonly llm?: ConfiguredProvider;
  /**
   * Starts listening (on the configured host and port unless given); resolves to the base URL.
   * `backlog` is the queue of connections not yet accepted (default 511; the kernel caps it,
   * at `net.core.somaxconn` on Linux): raise it for bursts of more new connections than that.
   */
  listen(options?: { host?: string; port?: number; backlog?: number }): Promise<string>;
  /**
   * Stops accepting requests, waits for those in flight (at most `graceMs`, default 10 s; then
   * every connection is closed), and closes upstream connections.
   */
  close(options?: { graceMs?: number }): Promise<void>;
}

/** How long `close()` waits for requests in flight before it closes their connections. */
export const DEFAULT_CLOSE_GRACE_MS = 10_000;

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
  const logs = createLogger({ ...config.server.log, destination: options.logDestination });
  const { logger } = logs;
  const metrics = new ServerMetrics({ processMetrics: options.processMetrics ?? true });
  const catalog = new Catalog(config);
  const upstreams = new Upstreams(config, env);
  const llm = config.llm ? createProvider(config.llm, { env, source: 'llm' }) : undefined;
  const contextConfig = contextConfigOf(config);
  const tiers =
    options.tiers ??
    tierRouterPort(createTierRouter(tierOptionsOf(config), llm ? { classifier: llm } : {}));
  const ctx: ServerContext = {
    config,
    logger,
    metrics,
    catalog,
    upstreams,
    tiers,
    router: new Router(catalog, tiers, config.server.unknownModel),
    injection: new InjectionScreen(config.injection, llm),
    ...(contextConfig ? { context: new ContextRouter({ config: contextConfig, llm }) } : {}),
  };

  const app = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    logController: new LogController({ disableRequestLogging: true }),
    // No child logger per request (a measurable cost on the hot path): request lines carry
    // their request id themselves.
    childLoggerFactory: (parent) => parent,
    bodyLimit: config.server.bodyLimitBytes,
    requestTimeout: config.server.requestTimeoutMs,
    // Node checks request timeouts on an interval (30 s by default): check often enough for
    // the limit to mean what it says.
    http: {
      connectionsCheckingInterval: Math.min(
        30_000,
        Math.max(50, Math.floor(config.server.requestTimeoutMs / 4)),
      ),
      headersTimeout: Math.min(60_000, config.server.requestTimeoutMs),
    },
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
  guard(app, ctx, new ClientKeys(clientKeys(config, env)));
  registerChat(app, ctx);
  registerRoute(app, ctx);
  registerService(app, ctx);

  return {
    app,
    config,
    metrics,
    logger,
    ...(llm ? { llm } : {}),
    async listen(at = {}) {
      await app.listen({
        host: at.host ?? config.server.host,
        port: at.port ?? config.server.port,
        ...(at.backlog === undefined ? {} : { backlog: at.backlog }),
      });
      const address = app.server.address() as AddressInfo;
      const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      return `http://${host}:${address.port}`;
    },
    async close({ graceMs = DEFAULT_CLOSE_GRACE_MS } = {}) {
      // Connections still open after the grace period (a stream that goes on, a client holding
      // a connection it never used) are closed, so that shutting down always ends.
      const force = setTimeout(() => app.server.closeAllConnections(), graceMs);
      await app.close();
      clearTimeout(force);
      await Promise.all([upstreams.close(), llm?.close()]);
      await logs.close();
    },
  };
}

/**
 * Client keys, OpenAI-style errors for everything that goes wrong before a handler answers, and
 * the 404 of unknown routes.
 */
function guard(app: FastifyInstance, ctx: ServerContext, keys: ClientKeys): void {
  const { metrics, logger } = ctx;
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
  app.setErrorHandler((error: FastifyError | HttpError, request, reply) => {
    const http = toHttpError(error);
    metrics.errors.inc({ kind: http.code });
    if (http.statusCode >= 500 && !(error instanceof HttpError)) {
      // An unexpected failure: log the error's type and stack, never the request body.
      logger.error({ reqId: request.id, err: error, route: request.routeOptions.url }, 'failed');
    }
    if (reply.raw.destroyed) return;
    void reply.code(http.statusCode).headers(http.headers).send(http.body());
  });
  app.setNotFoundHandler((request, reply) => {
    metrics.errors.inc({ kind: 'not_found' });
    const path = request.url.split('?')[0];
    void reply
      .code(404)
      .send(errorBody(`no route ${request.method} ${path}`, 'not_found_error', 'unknown_route'));
  });
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
