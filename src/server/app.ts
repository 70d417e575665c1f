import type { AddressInfo } from 'node:net';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyError,
  type FastifyInstance,
  LogController,
} from 'fastify';
import type { DestinationStream, Logger } from 'pino';
import type { InjectionConfigInput } from '../injection/config.js';
import type { ConfiguredProvider } from '../llm/config.js';
import { type SwitchableProvider, withModelSwitch } from '../llm/model-switch.js';
import type { DecisionCaches } from '../state/decision-caches.js';
import { memoryState, redisState, type SharedState } from '../state/shared-state.js';
import { createTriage, type Triage } from '../triage.js';
import { InjectionScreen } from '../triage-injection-screen.js';
import { Accounting } from './accounting.js';
import { AdminAccess } from './admin-access.js';
import { registerAdmin } from './admin-endpoint.js';
import { AgentMetrics } from './agents/agent-metrics.js';
import { AgentStage } from './agents/agent-stage.js';
import { ClientKeys } from './auth.js';
import { readJsonBody } from './body-reader.js';
import { watchBreaker } from './breaker-watch.js';
import { Catalog } from './catalog.js';
import { registerChat } from './chat-endpoint.js';
import { ClassifierSwitch, classifierOffReason } from './classifier-switch.js';
import {
  adminKeys,
  clientKeys,
  contextConfigOf,
  knownKeys,
  parseServerConfig,
  type ServerConfig,
  tierOptionsOf,
} from './config.js';
import { redisOptionsOf } from './config-state.js';
import { consoleRecorder, registerConsole } from './console-routes.js';
import type { TierRouterPort } from './decide.js';
import { errorBody, errorTypeOf, HttpError } from './errors.js';
import { OpenExchanges, shuttingDownBody } from './exchange.js';
import { exposureWarning } from './exposure.js';
import { registerForwarded } from './forward-endpoint.js';
import { llmCheckStatus, serverLlm } from './llm-check.js';
import { createLogger } from './logging.js';
import { registerMessages } from './messages-endpoint.js';
import { ServerMetrics } from './metrics.js';
import { protocolErrorHandler } from './protocol-errors.js';
import { registerResponses } from './responses-endpoint.js';
import { registerRoute } from './route-endpoint.js';
import { declaredRoutes, RouteTable } from './route-table.js';
import { registerRouterCommand } from './router-command.js';
import { Router } from './routing.js';
import { Secrets } from './secrets.js';
import type { ServerContext } from './server-context.js';
import { registerService } from './service-endpoints.js';
import { tierRouterPort } from './tier-port.js';
import { Upstreams } from './upstreams.js';
import { registerUsage } from './usage-endpoint.js';
import { verdictCachesOf } from './verdict-caches.js';

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
  /**
   * What `GET /metrics` answers; default this server's own metrics. A cluster worker answers
   * with the metrics of all workers.
   */
  readonly metricsText?: () => Promise<string>;
  /** The state to keep (closed with the server); default: the one the `state` section says. */
  readonly state?: SharedState;
}

/** A routing server, built and ready to listen. */
export interface TriageServer {
  readonly app: FastifyInstance;
  readonly config: ServerConfig;
  readonly metrics: ServerMetrics;
  readonly logger: Logger;
  /** The LLM the checks ask when a local classifier is unsure (`llm` in the configuration). */
  readonly llm: ConfiguredProvider | undefined;
  /** The tier classifier's model, switched at run time (`/router classifier`, the admin API). */
  readonly classifier: ClassifierSwitch;
  /**
   * Replaces the configuration without a restart: requests that arrive from now on use `next`;
   * requests in flight finish on the one they started with. `next` must be validated
   * ({@link parseServerConfig}). The `server` section (listening, limits on requests, client
   * keys, logs) is read at start only: returns the paths of its fields that changed and need a
   * restart (empty when none).
   */
  reload(next: ServerConfig): string[];
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

/**
 * How long the responses ended at the end of the grace period get to reach their clients before
 * their connections are closed.
 */
const SHUTDOWN_FLUSH_MS = 1_000;

/** Routes open without a client key, so that load balancers can probe them. */
const OPEN_ROUTES = new Set(['/health']);

/**
 * Builds the OpenAI-compatible routing server (see docs/server.md): `POST /v1/chat/completions`
 * decided and proxied to the configured upstreams (`/router …` chat commands answered by the
 * server), `POST /v1/route` for the decision alone, `GET /v1/models`, `GET /health`,
 * `GET /metrics` and `/admin/classifier`.
 */
export function createTriageServer(options: TriageServerOptions): TriageServer {
  const env = options.env ?? process.env;
  const config = options.config ?? parseServerConfig({}, { env });
  const secrets = new Secrets(knownKeys(config, env));
  const logs = createLogger({
    ...config.server.log,
    destination: options.logDestination,
    secrets,
  });
  const { logger } = logs;
  const metrics = new ServerMetrics({ processMetrics: options.processMetrics ?? true });
  const exchanges = new OpenExchanges();
  const keys = new ClientKeys(clientKeys(config, env));
  const state = options.state ?? stateOf(config, env, logger, metrics);
  watchBreaker(state.breaker, config.breaker, logger, metrics);
  const accounting = new Accounting(config, metrics.registry, state.counters, keys.enabled, (err) =>
    logger.error({ err }, 'counting a spend failed'),
  );
  let closing = false;
  const shared: Shared = {
    env,
    logger,
    metrics,
    exchanges,
    accounting,
    tiers: options.tiers,
    // The server section (admin keys, the console) is read at start only, like the rest of it.
    admin: new AdminAccess(adminKeys(config, env), config.server.admin.allowLoopback),
    recorder: consoleRecorder(config.console),
    agentMetrics: new AgentMetrics(metrics.registry),
    state,
  };
  let generation = buildGeneration(config, shared);
  const ctx = generation.ctx;
  const routesOf = (current: ServerContext) =>
    declaredRoutes((target) => {
      registerChat(target, current);
      registerMessages(target, current);
      registerResponses(target, current);
      registerForwarded(target, current);
      registerUsage(target, current);
      registerRoute(target, current);
      registerService(target, current, options.metricsText);
    });
  const table = new RouteTable();

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
    // Answered by `refuseWhileClosing`, in OpenAI's error shape.
    return503OnClosing: false,
    clientErrorHandler: protocolErrorHandler(metrics, config.server.requestTimeoutMs),
  });
  refuseWhileClosing(app, metrics, () => closing);
  app.removeAllContentTypeParsers();
  const bodies = {
    bodyLimit: config.server.bodyLimitBytes,
    limits: { maxDepth: config.server.maxJsonDepth, maxValues: config.server.maxJsonValues },
  };
  app.addContentTypeParser('*', (request, payload, done) => {
    readJsonBody(request.headers, payload, bodies, done);
  });
  guard(app, ctx, keys);
  // Routes registered once, outside the table that a reload swaps: they read the context of the
  // generation current when a request arrives.
  const current = currentContext(() => generation.ctx);
  registerRouterCommand(app, current);
  registerAdmin(app, current);
  registerConsole(app, current, { keysEnabled: keys.enabled, section: config.console });
  table.install(app, routesOf(ctx));

  return {
    app,
    get config() {
      return generation.ctx.config;
    },
    metrics,
    logger,
    get llm() {
      return generation.llm;
    },
    get classifier() {
      return generation.ctx.classifier;
    },
    reload(next) {
      const restart = restartOnlyChanges(generation.ctx.config, next);
      const built = buildGeneration(next, shared);
      accounting.configure(next);
      state.breaker.configure(next.breaker);
      table.swap(routesOf(built.ctx));
      const old = generation;
      generation = built;
      // Requests in flight keep the old upstreams until they finish; then their pools close.
      void old.retire().catch((err: unknown) => logger.error({ err }, 'closing old upstreams'));
      return restart;
    },
    async listen(at = {}) {
      await app.listen({
        host: at.host ?? config.server.host,
        port: at.port ?? config.server.port,
        ...(at.backlog === undefined ? {} : { backlog: at.backlog }),
      });
      const address = app.server.address() as AddressInfo;
      const warning = exposureWarning(address.address, keys.enabled);
      if (warning !== undefined) logger.warn({ address: address.address }, warning);
      const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      return `http://${host}:${address.port}`;
    },
    async close({ graceMs = DEFAULT_CLOSE_GRACE_MS } = {}) {
      closing = true;
      // Requests still in flight after the grace period are ended cleanly (an error event for
      // a stream, a 503 for an answer not started), then every connection still open (a client
      // holding a connection it never used) is closed, so that shutting down always ends.
      const force = setTimeout(() => {
        void exchanges.shutDownAll(SHUTDOWN_FLUSH_MS).then(() => app.server.closeAllConnections());
      }, graceMs);
      await app.close();
      clearTimeout(force);
      await generation.retire();
      await state.close();
      await logs.close();
    },
  };
}

/**
 * Requests read while the server shuts down (on a connection that was busy when it began) get a
 * 503 with `connection: close`, so that the client retries elsewhere.
 */
function refuseWhileClosing(
  app: FastifyInstance,
  metrics: ServerMetrics,
  closing: () => boolean,
): void {
  app.addHook('onRequest', (_request, reply, done) => {
    if (!closing()) return done();
    metrics.errors.inc({ kind: 'server_shutting_down' });
    void reply.code(503).header('connection', 'close').send(shuttingDownBody());
  });
}

/**
 * The front door the server decides with: tier (unless the caller brought its own tier port),
 * the injection screen and the context policy, from the configuration's sections, with the
 * configuration's `llm`. Each part keeps its own configured decision cache, from the state's
 * (shared through Redis when the state is).
 */
function triageOf(
  config: ServerConfig,
  withTier: boolean,
  llm: ConfiguredProvider | undefined,
  classifierLlm: SwitchableProvider | undefined,
  decisions: DecisionCaches,
) {
  const contextConfig = contextConfigOf(config);
  const { guard, detector } = config.injection;
  const tier = withTier ? tierOptionsOf(config) : undefined;
  return createTriage({
    ...(llm ? { llm } : {}),
    cache: verdictCachesOf(decisions, { tier, context: contextConfig, injectionGuard: guard }),
    tier:
      tier === undefined
        ? false
        : classifierLlm
          ? { ...tier, llm: { ...tier.llm, provider: classifierLlm } }
          : tier,
    injection: {
      ...(guard as object | undefined),
      detector: (detector ?? {}) as InjectionConfigInput,
    },
    context: contextConfig ?? false,
  }) as Triage;
}

/** What every generation of the server's configuration shares. */
interface Shared {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly logger: Logger;
  readonly metrics: ServerMetrics;
  readonly exchanges: OpenExchanges;
  readonly accounting: Accounting;
  /** A tier router brought by the caller, kept across reloads. */
  readonly tiers: TierRouterPort | undefined;
  /** Who may change the server at run time. */
  readonly admin: AdminAccess;
  /** What the console's live view reads (absent when the console is off). */
  readonly recorder: ReturnType<typeof consoleRecorder>;
  /** The agent stage's metrics (each generation builds its own stage over them). */
  readonly agentMetrics: AgentMetrics;
  /** What the instance keeps beyond one request (in memory, or shared through Redis). */
  readonly state: SharedState;
}

/** What one configuration builds: the handlers' context, and what to close when it is replaced. */
interface Generation {
  readonly ctx: ServerContext;
  readonly llm: ConfiguredProvider | undefined;
  /** Closes its upstream pools (after their requests in flight) and its LLM. */
  retire(): Promise<void>;
}

function buildGeneration(config: ServerConfig, shared: Shared): Generation {
  const secrets = new Secrets(knownKeys(config, shared.env));
  const catalog = new Catalog(config);
  const upstreams = new Upstreams(config, shared.env, secrets);
  const built = serverLlm(config, shared.env, shared.logger);
  const llm = built?.provider;
  const withTier = shared.tiers === undefined;
  // The tier check asks through a switch, so that its model can change at run time.
  const classifierLlm = llm && withTier ? withModelSwitch(llm) : undefined;
  const triage = triageOf(config, withTier, llm, classifierLlm, shared.state.decisions);
  const tiers = shared.tiers ?? tierRouterPort(triage);
  const ctx: ServerContext = {
    exchanges: shared.exchanges,
    config,
    logger: shared.logger,
    metrics: shared.metrics,
    catalog,
    upstreams,
    breaker: shared.state.breaker,
    tiers,
    router: new Router(catalog, tiers, config.server.unknownModel),
    triage,
    injection: new InjectionScreen(config.injection, triage),
    llmCheck: llmCheckStatus(triage, built, shared.metrics),
    classifier: new ClassifierSwitch(
      classifierLlm,
      classifierOffReason(config.llm !== undefined && withTier, built?.disabled ?? null),
      shared.logger,
    ),
    admin: shared.admin,
    // A reload rebuilds the agent stage's engines from the next requests' messages; how far each
    // conversation's guidance has gone is in the shared state, so no nudge is given twice.
    agents: new AgentStage(config.agents, {
      llm,
      triage,
      metrics: shared.agentMetrics,
      conversations: shared.state.conversations,
    }),
    ...(shared.recorder ? { recorder: shared.recorder } : {}),
    accounting: shared.accounting,
  };
  return {
    ctx,
    llm,
    async retire() {
      await Promise.all([upstreams.close(), llm?.close()]);
    },
  };
}

/**
 * Where the server keeps what it shares with other instances (the `state` section): in memory,
 * or in Redis, whose outages and returns are logged once each and counted (never with its URL).
 */
function stateOf(
  config: ServerConfig,
  env: Readonly<Record<string, string | undefined>>,
  logger: Logger,
  metrics: ServerMetrics,
): SharedState {
  const options = redisOptionsOf(config.state, env);
  if (options === undefined) return memoryState();
  metrics.redisUp(false);
  return redisState(options, {
    down: (error) => {
      metrics.redisUp(false);
      logger.warn(
        { err: { type: error.name, message: error.message } },
        'shared state: Redis is not answering; this instance uses its own memory until it does',
      );
    },
    up: () => {
      metrics.redisUp(true);
      logger.info('shared state: Redis answers; state is shared again');
    },
    fallback: (part) => metrics.stateFallbacks.inc({ part }),
  });
}

/**
 * The fields of the `server` and `state` sections that differ between two configurations: read at
 * start, they wait for a restart.
 */
export function restartOnlyChanges(running: ServerConfig, next: ServerConfig): string[] {
  const changed = (section: 'server' | 'state') => {
    const before = running[section] as Record<string, unknown>;
    const after = next[section] as Record<string, unknown>;
    const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
    return [...keys]
      .filter((key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]))
      .map((key) => `/${section}/${key}`);
  };
  return [...changed('server'), ...changed('state')];
}

/**
 * Client keys, OpenAI-style errors for everything that goes wrong before a handler answers, and
 * the 404 of unknown routes.
 */
function guard(app: FastifyInstance, ctx: ServerContext, keys: ClientKeys): void {
  const { metrics, logger } = ctx;
  if (keys.enabled) {
    app.addHook('onRequest', (request, reply, done) => {
      if (
        OPEN_ROUTES.has(request.routeOptions.url ?? '') ||
        (request.routeOptions.config as { open?: boolean } | undefined)?.open === true ||
        keys.allows(request.headers)
      ) {
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
    // Nothing to answer when the client left, or when the server already did (shutting down).
    if (reply.raw.destroyed || reply.raw.headersSent) return;
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

/**
 * A context whose every field is read from the generation current at the time of reading: for
 * the routes registered once (the chat command, the admin API, the console), so that after a
 * reload they act on the new configuration, as the swapped routes do.
 */
function currentContext(current: () => ServerContext): ServerContext {
  return new Proxy({} as ServerContext, {
    get: (_target, field) => current()[field as keyof ServerContext],
  });
}
