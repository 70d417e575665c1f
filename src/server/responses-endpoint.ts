import type { FastifyInstance } from 'fastify';
import { proxiedHandler } from './chat-endpoint.js';
import { RESPONSES } from './protocols/responses-inbound.js';
import type { ServerContext } from './server-context.js';

/** `POST /v1/responses` (OpenAI Responses): decided on its input, forwarded as it is. */
export function registerResponses(app: FastifyInstance, ctx: ServerContext): void {
  app.post('/v1/responses', proxiedHandler(ctx, RESPONSES));
}
