import type { FastifyReply } from 'fastify';
import type { ParsedBody } from '../body.js';
import type { ChatRequestBody } from '../decide.js';
import type { Exchange } from '../exchange.js';
import type { ByteSpan } from '../json-scan.js';
import { GONE, type ServerContext, unlessGone } from '../server-context.js';
import type { AgentReport } from './agent-stage.js';
import { messagesForwarded } from './messages-agents.js';

/**
 * The agent stage on the chat path: the request as it is to be forwarded (re-serialised only
 * when the stage changed it), the headers that report what was done, and the report for the log.
 */

/** A chat request as it is forwarded. */
export interface ForwardedChat {
  readonly body: ChatRequestBody;
  readonly raw: Buffer;
  /** Where `model` is in `raw`: `undefined` when `raw` was re-serialised (found again if needed). */
  readonly modelValue: ByteSpan | null | undefined;
  readonly headers: Record<string, string>;
  readonly report: AgentReport | undefined;
}

type Forwarded = ForwardedChat | typeof GONE;

/** A chat request as it came, before the stage. */
type ChatAsSent = Pick<ForwardedChat, 'body' | 'raw' | 'modelValue'>;

/**
 * The endpoints whose requests go through the stage: chat completions, and Anthropic messages
 * (the stage reads their chat-completions form; {@link reparsed} applies its work to theirs).
 */
export const AGENT_ENDPOINTS: ReadonlySet<string> = new Set(['chat', 'messages']);

/**
 * The body a changed request is read again from, in its endpoint's own format: the stage's chat
 * body for chat completions, the client's Messages body with the stage's work done to it for
 * Anthropic messages. `modelValue` is left out: the body was serialised again, and the model is
 * found again where needed.
 */
export function reparsed(
  endpoint: string,
  parsed: ParsedBody,
  sent: ForwardedChat,
  as: 'system' | 'user',
): ParsedBody {
  if (endpoint !== 'messages') return { json: sent.body, raw: sent.raw, modelValue: undefined };
  const json = messagesForwarded(parsed.json as Record<string, unknown>, sent.report!, as);
  return { json, raw: Buffer.from(JSON.stringify(json)), modelValue: undefined };
}

/** Runs the agent stage over a chat request (see `AgentStage.apply`). */
export function forwardedChat(
  ctx: ServerContext,
  request: ChatAsSent,
  headers: Readonly<Record<string, string | string[] | undefined>>,
  exchange: Exchange,
  reply: FastifyReply,
): Forwarded | Promise<Forwarded> {
  const applied = ctx.agents.apply(request.body, headers, exchange, request.raw.length);
  if (!(applied instanceof Promise)) return forwarded(request, applied);
  return unlessGone(ctx, applied, exchange, reply).then((outcome) =>
    outcome === GONE ? GONE : forwarded(request, outcome),
  );
}

function forwarded(
  request: ChatAsSent,
  outcome: Awaited<ReturnType<ServerContext['agents']['apply']>>,
): ForwardedChat {
  if (outcome === undefined) return { ...request, headers: {}, report: undefined };
  if (!outcome.changed) {
    return { ...request, headers: outcome.headers, report: outcome.report };
  }
  return {
    body: outcome.body,
    raw: Buffer.from(JSON.stringify(outcome.body)),
    modelValue: undefined,
    headers: outcome.headers,
    report: outcome.report,
  };
}

/** The agent report as logged: counts and provider ids, never prompt text or tool arguments. */
export function agentLog(report: AgentReport): Record<string, unknown> {
  const { tools, guidance, trim } = report;
  return {
    ...(tools
      ? {
          tools: { kept: tools.kept, total: tools.total, tokensRemoved: tools.tokensRemoved },
        }
      : {}),
    ...(guidance ? { guidance: { provider: guidance.provider, action: guidance.action } } : {}),
    ...(trim ? { trim: { kept: trim.kept, total: trim.total, mode: trim.mode } } : {}),
  };
}
