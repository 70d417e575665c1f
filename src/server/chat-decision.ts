import type { FastifyReply } from 'fastify';
import { blockReason, type InjectionFinding } from '../triage-injection-screen.js';
import type { ChatRequestBody } from './decide.js';
import { HttpError } from './errors.js';
import type { Exchange } from './exchange.js';
import type { Routing } from './routing.js';
import { GONE, routeOf, type ServerContext, screenOf } from './server-context.js';

/**
 * The decisions a chat request waits for before it is proxied: the injection screen and the
 * routing. Both are synchronous on the usual path; when both ask their LLM check, they ask at
 * once, under the request's one deadline, so that the request waits for the slower, not for the
 * sum. A request the screen blocks is refused (403) as soon as the screen says so, and is never
 * proxied.
 */

/** What a chat request was decided to be. */
export interface ChatDecision {
  /** The screen's finding (`undefined` when the policy is off or there was nothing to scan). */
  readonly injection: InjectionFinding | undefined;
  readonly routing: Routing;
  /** Headers the answer carries because of the screen (`x-triage-injection`, `-source`). */
  readonly headers: Record<string, string>;
}

type Decided = ChatDecision | typeof GONE;

/** Screens and routes a chat request (see the module comment). */
export function decideChat(
  ctx: ServerContext,
  body: ChatRequestBody,
  exchange: Exchange,
  reply: FastifyReply,
): Decided | Promise<Decided> {
  const screened =
    ctx.injection.policy === 'off' ? undefined : screenOf(ctx, body, exchange, reply, true);
  if (!(screened instanceof Promise)) {
    const headers = screenHeaders(screened);
    const routed = routeOf(ctx, body, exchange, reply);
    return routed instanceof Promise
      ? routed.then((routing) => decided(screened, routing, headers))
      : decided(screened, routed, headers);
  }
  let routed: ReturnType<typeof routeOf>;
  try {
    routed = routeOf(ctx, body, exchange, reply);
  } catch (error) {
    // A request the screen blocks is refused as such, whatever else is wrong with it.
    return screened.then((finding) => {
      if (finding !== GONE) screenHeaders(finding);
      throw error;
    });
  }
  const checked = screened.then((finding) =>
    finding === GONE ? finding : { finding, headers: screenHeaders(finding) },
  );
  return Promise.all([checked, routed]).then(([screen, routing]) =>
    screen === GONE ? GONE : decided(screen.finding, routing, screen.headers),
  );
}

function decided(
  injection: InjectionFinding | undefined,
  routing: Routing | typeof GONE,
  headers: Record<string, string>,
): Decided {
  return routing === GONE ? GONE : { injection, routing, headers };
}

/** The headers of a screened request; throws the 403 of one the policy blocks. */
function screenHeaders(finding: InjectionFinding | undefined): Record<string, string> {
  if (!finding?.acts) return {};
  // The source says whether it was the user's message or a tool result (indirect injection).
  const headers = {
    'x-triage-injection': finding.riskLevel,
    'x-triage-injection-source': finding.text,
  };
  if (finding.action === 'block') {
    throw new HttpError(403, 'prompt_injection', blockReason(finding), {
      type: 'invalid_request_error',
      headers,
    });
  }
  return headers;
}
