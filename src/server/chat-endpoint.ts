import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AgentReport } from './agents/agent-stage.js';
import { agentLog, forwardedChat } from './agents/chat-agents.js';
import { chatRequestOf, lastUserText } from './body.js';
import { decideChat } from './chat-decision.js';
import type { ChatRequestBody } from './decide.js';
import { errorBody } from './errors.js';
import { Exchange } from './exchange.js';
import { decisionHeaders } from './headers.js';
import type { InjectionFinding } from './injection-screen.js';
import { noUpstreamError } from './no-upstream.js';
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
  const { metrics, logger, upstreams } = ctx;
  const { decisionHeaders: withHeaders, deadlineMs } = ctx.config.server;
  const onFailure = metrics.failed.bind(metrics);

  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const started = performance.now();
    const { body, raw, modelValue } = chatRequestOf(request.body);
    const deadline = requestDeadline(request.headers, deadlineMs, started);
    const exchange = new Exchange(reply.raw, ctx.exchanges);
    exchange.deadlineAt = deadline.at;
    const pending = decideChat(ctx, body, exchange, reply);
    const decision = pending instanceof Promise ? await pending : pending;
    if (decision === GONE) return;
    const { injection, routing } = decision;
    const shaping = forwardedChat(ctx, { body, raw, modelValue }, request.headers, exchange, reply);
    const sent = shaping instanceof Promise ? await shaping : shaping;
    if (sent === GONE) return;
    const extraHeaders = { ...decision.headers, ...sent.headers };
    const { tier } = routing.decision;
    if (routing.targets.length === 0) {
      metrics.decided(routing);
      metrics.requests.inc({ endpoint: 'chat', tier, model: 'none', status: 503 });
      const headers = withHeaders ? decisionHeaders(routing, undefined, 0) : {};
      throw noUpstreamError(routing, { ...extraHeaders, ...(headers as Record<string, string>) });
    }
    reply.hijack();
    metrics.inFlight.inc();
    let result: ProxyResult | undefined;
    try {
      result = await proxyChat(exchange, routing, sent.body, sent.raw, {
        upstreams,
        decisionHeaders: withHeaders,
        onFailure,
        extraHeaders,
        modelValue: sent.modelValue,
        deadline,
      });
    } catch (error) {
      logger.error({ reqId: request.id, err: error }, 'proxying failed');
      metrics.errors.inc({ kind: 'internal' });
      if (!reply.raw.headersSent) {
        reply.raw.writeHead(500, { 'content-type': 'application/json' });
        reply.raw.end(JSON.stringify(errorBody('internal error', 'server_error', 'internal')));
      } else reply.raw.destroy();
    } finally {
      metrics.inFlight.dec();
    }
    const agents = sent.report;
    record(ctx, { id: request.id, body, routing, result, injection, started, exchange, agents });
  };
  app.post('/v1/chat/completions', handler);
  app.post('/chat/completions', handler);
}

/** What one chat request came to, for {@link record}. */
interface ChatOutcome {
  readonly id: string;
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
  metrics.requests.inc({ endpoint: 'chat', tier, model, status: status === 0 ? 499 : status });
  if (closedByServer) metrics.errors.inc({ kind: 'server_shutting_down' });
  const outcome = result?.outcome;
  const interrupted = outcome?.kind === 'answered' ? outcome.interrupted : undefined;
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
