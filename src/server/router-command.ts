import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerHookHandler } from 'fastify';
import { messageText, roleOf } from '../triage-request.js';
import type { ParsedBody } from './body.js';
import type { ClassifierStatus } from './classifier-switch.js';
import type { ServerContext } from './server-context.js';

/**
 * The original design's chat commands: a chat request whose last message is a user message starting
 * with `/router` is answered by the server itself, in the chat-completions shape (a stream when
 * the request asks for one), and never proxied:
 *
 * - `/router` or `/router help`: what the commands are;
 * - `/router classifier`: the tier router's classifier model now;
 * - `/router classifier <model>`: switches it (an admin only, see `server.admin`);
 * - `/router classifier reset`: back to the configured model (an admin only).
 *
 * Every other request passes on untouched: the check reads the last message only.
 */

/** The routes a chat command may arrive on. */
const CHAT_ROUTES = new Set(['/v1/chat/completions', '/chat/completions']);

/** The model the answers name. */
const COMMAND_MODEL = 'triage/router';

const COMMAND = /^\/router(?:\s+([\s\S]*))?$/;

export function registerRouterCommand(app: FastifyInstance, ctx: ServerContext): void {
  const intercept: preHandlerHookHandler = (request, reply, done) => {
    const command = routerCommandOf(request.body);
    if (command === undefined) return done();
    let text: string;
    try {
      text = answer(command, request, ctx);
    } catch (error) {
      return done(error as Error);
    }
    ctx.metrics.requests.inc({
      endpoint: 'router_command',
      tier: 'none',
      model: 'none',
      status: 200,
    });
    // Answered here: the handler does not run (done is not called).
    void sendAnswer(reply, text, streamWanted(request.body));
  };
  // Only the chat routes get the check, so that no other route pays for it; registered before
  // them, it sees them as they are added.
  app.addHook('onRoute', (route) => {
    if (!CHAT_ROUTES.has(route.url)) return;
    const existing = route.preHandler;
    route.preHandler =
      existing === undefined
        ? intercept
        : [intercept, ...(Array.isArray(existing) ? existing : [existing])];
  });
}

/** The words after `/router` when the last message is a user message holding such a command. */
export function routerCommandOf(body: unknown): string[] | undefined {
  const json = (body as ParsedBody | undefined)?.json as { messages?: unknown } | undefined;
  const messages = json?.messages;
  if (!Array.isArray(messages) || messages.length === 0) return undefined;
  const last = messages[messages.length - 1];
  if (roleOf(last) !== 'user') return undefined;
  const content = (last as { content?: unknown }).content;
  // The common case, a plain text that is no command, is told without copying it.
  if (typeof content === 'string' && !LEADS_WITH_COMMAND.test(content)) return undefined;
  const match = COMMAND.exec(messageText(last).trim());
  if (match === null) return undefined;
  return (match[1] ?? '').split(/\s+/).filter((word) => word.length > 0);
}

const LEADS_WITH_COMMAND = /^\s*\/router(?:\s|$)/;

/** The text that answers a command. Throws a 403 for a switch by a caller who is no admin. */
function answer(words: readonly string[], request: FastifyRequest, ctx: ServerContext): string {
  const [verb, argument, ...rest] = words;
  if (verb === undefined || verb === 'help') return HELP;
  if (verb !== 'classifier' || rest.length > 0) {
    const said = words.join(' ');
    return `Unknown command: /router ${said.length > 80 ? `${said.slice(0, 80)}…` : said}\n\n${HELP}`;
  }
  if (argument === undefined) return describe(ctx.classifier.status());
  ctx.admin.check(request);
  const status = ctx.classifier.switchTo(argument, 'chat');
  return argument === 'reset'
    ? `Classifier model reset to ${status.model}.`
    : `Classifier model switched to ${status.model} (configured: ${status.configured_model}).`;
}

function describe(status: ClassifierStatus): string {
  if (!status.enabled) return `The tier router's LLM check is off: ${status.reason}.`;
  const switched =
    status.model === status.configured_model ? '' : ` (configured: ${status.configured_model})`;
  return `Classifier model: ${status.model}${switched}, on provider ${status.provider}.`;
}

const HELP = [
  'triage router commands:',
  '/router classifier: show the tier classifier model',
  '/router classifier <model>: switch the tier classifier model (admin)',
  '/router classifier reset: back to the configured model (admin)',
  '/router help: this text',
].join('\n');

function streamWanted(body: unknown): boolean {
  const json = (body as ParsedBody).json as { stream?: unknown };
  return json.stream === true;
}

/** Sends `text` as a chat completion, or as its stream of chunks. */
function sendAnswer(reply: FastifyReply, text: string, stream: boolean) {
  const id = `chatcmpl-triage-${randomUUID()}`;
  const created = Math.floor(Date.now() / 1000);
  reply.header('x-triage-command', 'router');
  if (!stream) {
    return reply.code(200).send({
      id,
      object: 'chat.completion',
      created,
      model: COMMAND_MODEL,
      choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
    });
  }
  const chunk = (delta: object, finish: string | null) =>
    `data: ${JSON.stringify({
      id,
      object: 'chat.completion.chunk',
      created,
      model: COMMAND_MODEL,
      choices: [{ index: 0, delta, finish_reason: finish }],
    })}\n\n`;
  return reply
    .code(200)
    .header('content-type', 'text/event-stream')
    .header('cache-control', 'no-cache')
    .send(
      `${chunk({ role: 'assistant', content: text }, null)}${chunk({}, 'stop')}data: [DONE]\n\n`,
    );
}
