import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { InjectionFinding } from '../triage-injection-screen.js';
import type { AgentReport } from './agents/agent-stage.js';
import { AGENT_ENDPOINTS, agentLog, forwardedChat, reparsed } from './agents/chat-agents.js';
import type { ParsedBody } from './body.js';
import { lastUserText } from './body.js';
import { decideChat } from './chat-decision.js';
import { chatTraffic } from './console-traffic.js';
import type { ChatRequestBody } from './decide.js';
import { HttpError } from './errors.js';
import { Exchange } from './exchange.js';
import { decisionHeaders } from './headers.js';
import { noUpstreamError } from './no-upstream.js';
import { CHAT_COMPLETIONS } from './protocols/chat-inbound.js';
import type { InboundProtocol } from './protocols/inbound.js';
import { type ProxyResult, proxyChat } from './proxy.js';
import { requestDeadline } from './request-deadline.js';
import type { Routing } from './routing.js';
import { GONE, roundMs, type ServerContext } from './server-context.js';

/** Longest prompt excerpt written to a log line when prompt logging is on. */
const MAX_LOGGED_PROMPT_CHARS = 2000;

/**
 * `POST /v1/chat/completions` (and `/chat/completions`): decides the request, proxies it along its
 * targets, and records what happened in the metrics and one log line.
 */
export function registerChat(app: FastifyInstance, ctx: ServerContext): void {
  const handler = proxiedHandler(ctx, CHAT_COMPLETIONS);
  app.post('/v1/chat/completions', handler);
  app.post('/chat/completions', handler);
}

/**
 * The handler of an endpoint whose requests are decided and proxied (chat completions, Anthropic
 * messages): the request, read in its wire format, is classified as a chat request, then sent
 * along its targets, each in its upstream's wire format.
 */
export function proxiedHandler(
  ctx: ServerContext,
  protocol: InboundProtocol,
): (request: FastifyRequest, reply: FastifyReply) => Promise<void> {
  const { metrics, logger, upstreams } = ctx;
  const endpoint = protocol.endpoint;
  const { decisionHeaders: withHeaders, deadlineMs } = ctx.config.server;
  const onFailure = metrics.failed.bind(metrics);
  const onSkip = metrics.skipped.bind(metrics);

  return async (request: FastifyRequest, reply: FastifyReply) => {
    const started = performance.now();
    let inbound = protocol.read(request.body);
    const body = inbound.chat;
    const client = ctx.accounting.clientOf(request.headers);
    const admitted = ctx.accounting.admit(client);
    if (admitted !== undefined) await admitted;
    const deadline = requestDeadline(request.headers, deadlineMs, started);
    const exchange = new Exchange(reply.raw, ctx.exchanges);
    exchange.deadlineAt = deadline.at;
    const pending = decideChat(ctx, body, exchange, reply);
    const decision = pending instanceof Promise ? await pending : pending;
    if (decision === GONE) return;
    const { injection } = decision;
    const routing = protocol.serves ? servedBy(ctx, protocol, decision.routing) : decision.routing;
    // The agent stage (tools, guidance, trimming) reads and rewrites chat-completion bodies; a
    // body it changed is read again, so that every attempt sends the changed one.
    let agents: AgentReport | undefined;
    let agentHeaders: Record<string, string> = {};
    if (AGENT_ENDPOINTS.has(protocol.endpoint)) {
      const parsed = request.body as ParsedBody;
      const chat = { body, raw: parsed.raw, modelValue: parsed.modelValue };
      const shaping = forwardedChat(ctx, chat, request.headers, exchange, reply);
      const sent = shaping instanceof Promise ? await shaping : shaping;
      if (sent === GONE) return;
      agents = sent.report;
      agentHeaders = sent.headers;
      if (sent.body !== body) {
        const as = ctx.agents.section.guidance.as;
        inbound = protocol.read(reparsed(protocol.endpoint, parsed, sent, as));
      }
    }
    const extraHeaders = { ...decision.headers, ...agentHeaders };
    const { tier } = routing.decision;
    if (routing.targets.length === 0) {
      metrics.decided(routing);
      metrics.requests.inc({ endpoint, tier, model: 'none', status: 503 });
      const headers = withHeaders ? decisionHeaders(routing, undefined, 0) : {};
      throw noUpstreamError(routing, { ...extraHeaders, ...(headers as Record<string, string>) });
    }
    reply.hijack();
    metrics.inFlight.inc();
    let result: ProxyResult | undefined;
    try {
      result = await proxyChat(exchange, routing, body, EMPTY, {
        upstreams,
        decisionHeaders: withHeaders,
        onFailure,
        breaker: ctx.breaker,
        onSkip,
        extraHeaders,
        deadline,
        // The request's own method (it keeps its state in its closure, not in `this`): no
        // function made per request for it.
        prepare: inbound.prepare,
        client: protocol.client,
      });
    } catch (error) {
      logger.error({ reqId: request.id, err: error }, 'proxying failed');
      metrics.errors.inc({ kind: 'internal' });
      if (!reply.raw.headersSent) {
        reply.raw.writeHead(500, { 'content-type': 'application/json' });
        reply.raw.end(
          JSON.stringify(protocol.client.errorBody('internal error', 'server_error', 'internal')),
        );
      } else reply.raw.destroy();
    } finally {
      metrics.inFlight.dec();
    }
    record(ctx, {
      id: request.id,
      endpoint,
      client,
      body,
      routing,
      result,
      injection,
      started,
      exchange,
      agents,
    });
  };
}

/**
 * The routing with only the targets whose upstream serves the endpoint; an `HttpError` saying so
 * when the tier has models but none serves it.
 */
function servedBy(ctx: ServerContext, protocol: InboundProtocol, routing: Routing): Routing {
  const serves = protocol.serves as NonNullable<InboundProtocol['serves']>;
  const targets = routing.targets.filter((t) => serves(ctx.upstreams.get(t.model.provider)));
  if (targets.length === routing.targets.length) return routing;
  if (targets.length === 0 && routing.targets.length > 0) {
    const providers = [...new Set(routing.targets.map((t) => t.model.provider))];
    const message = protocol.unserved?.(providers) ?? 'no upstream serves this endpoint';
    throw new HttpError(400, 'unsupported_endpoint', message);
  }
  return { ...routing, targets };
}

/** The client's bytes are not needed once every attempt is prepared by the protocol. */
const EMPTY = Buffer.alloc(0);

/** What one chat request came to, for {@link record}. */
interface ChatOutcome {
  readonly id: string;
  readonly endpoint: string;
  readonly client: string;
  readonly body: ChatRequestBody;
  readonly routing: Routing;
  readonly result: ProxyResult | undefined;
  readonly injection: InjectionFinding | undefined;
  readonly started: number;
  readonly exchange: Exchange;
  readonly agents: AgentReport | undefined;
}

/** The metrics and the log line of a proxied chat request. */
function record(ctx: ServerContext, chat: ChatOutcome): void {
  const { metrics, logger } = ctx;
  const { routing, result, injection } = chat;
  const { tier } = routing.decision;
  metrics.decided(routing);
  const model = result?.answeredBy?.model.id ?? 'none';
  const closedByServer = chat.exchange.closedByServer;
  // What the client got when the server shut down; else 499, as nginx records it: the client
  // closed the connection before the answer.
  const status = closedByServer ? chat.exchange.res.statusCode : (result?.status ?? 500);
  metrics.requests.inc({
    endpoint: chat.endpoint,
    tier,
    model,
    status: status === 0 ? 499 : status,
  });
  if (closedByServer) metrics.errors.inc({ kind: 'server_shutting_down' });
  const outcome = result?.outcome;
  const interrupted = outcome?.kind === 'answered' ? outcome.interrupted : undefined;
  const labels = { model, tier, client: chat.client };
  const costed =
    outcome?.kind === 'answered' ? ctx.accounting.answered(labels, result?.usage) : undefined;
  if (outcome?.kind === 'answered' && chat.agents) ctx.accounting.agentSavings(labels, chat.agents);
  if (ctx.recorder) {
    const p = ctx.config.server.log.prompts ? lastUserText(chat.body, 500) : undefined;
    ctx.recorder.record(chatTraffic(routing, result, status, chat.started, injection, p, costed));
  }
  if (outcome?.kind === 'answered') {
    metrics.upstreamLatency.observe(
      { model, kind: outcome.streamed ? 'stream' : 'json' },
      outcome.firstByteMs / 1000,
    );
    if (interrupted) metrics.interrupted.inc({ model });
  }
  if (!logger.isLevelEnabled('info')) return;
  logger.info(
    {
      reqId: chat.id,
      tier,
      source: routing.decision.source,
      confidence: routing.decision.confidence,
      model,
      status: closedByServer ? 'server_closed' : status === 0 ? 'client_closed' : status,
      stream: chat.body.stream === true,
      ...(result && result.failures.length > 0
        ? {
            fallbacks: result.failures.map(({ target, failure }) => ({
              model: target.model.id,
              reason: failure.reason,
              status: failure.status,
            })),
          }
        : {}),
      ...(interrupted ? { interrupted } : {}),
      ...(injection && injection.riskLevel !== 'normal'
        ? {
            injection: {
              level: injection.riskLevel,
              text: injection.text,
              kinds: injection.signals.map((signal) => signal.kind),
              flagged: injection.acts,
            },
          }
        : {}),
      ...(chat.agents ? { agents: agentLog(chat.agents) } : {}),
      decideMs: roundMs(routing.decideMs),
      ms: roundMs(performance.now() - chat.started),
      ...(ctx.config.server.log.prompts
        ? { prompt: lastUserText(chat.body, MAX_LOGGED_PROMPT_CHARS) }
        : {}),
    },
    'chat completion',
  );
}
