import type { FastifyInstance } from 'fastify';
import type { ParsedBody } from './body.js';
import { HttpError } from './errors.js';
import type { ServerContext } from './server-context.js';

/**
 * `GET /admin/classifier` (the tier router's classifier model now, the configured one, and
 * whether there is an LLM check), `POST /admin/classifier {"model": "…"}` (switches it;
 * `{"model": null}` goes back to the configured one) and `DELETE /admin/classifier` (the same).
 * An admin only (`server.admin`: an admin key, or a direct loopback connection), after the client
 * keys when they are configured.
 */
export function registerAdmin(app: FastifyInstance, ctx: ServerContext): void {
  const { admin, classifier } = ctx;
  app.get('/admin/classifier', async (request) => {
    admin.check(request);
    return classifier.status();
  });
  app.post('/admin/classifier', async (request) => {
    admin.check(request);
    return classifier.switchTo(modelOf(request.body), 'admin');
  });
  app.delete('/admin/classifier', async (request) => {
    admin.check(request);
    return classifier.switchTo(null, 'admin');
  });
}

/** The `model` of a `{"model": …}` body: a string, or `null` to reset. */
function modelOf(body: unknown): string | null {
  const json = (body as ParsedBody | undefined)?.json;
  if (typeof json !== 'object' || json === null || Array.isArray(json) || !('model' in json)) {
    throw new HttpError(400, 'invalid_body', 'send {"model": "<model id>"} (or {"model": null})', {
      param: 'model',
    });
  }
  const { model } = json as { model: unknown };
  if (model === null || typeof model === 'string') return model;
  throw new HttpError(400, 'invalid_model', 'model must be a string, or null to reset', {
    param: 'model',
  });
}
