import type { FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';

/**
 * The routes of the server, registered once with Fastify, whose handlers can be replaced as a
 * whole: a configuration reload builds every handler anew over the new configuration and swaps
 * them in at once. A request runs the handler that was current when it arrived, and so finishes
 * on the configuration it started with.
 */

type Handler = (request: FastifyRequest, reply: FastifyReply) => unknown;

/** One route as a `register…` function declared it. */
interface DeclaredRoute {
  readonly method: 'GET' | 'POST';
  readonly url: string;
  readonly options: RouteShorthandOptions | undefined;
  readonly handler: Handler;
}

/**
 * The routes `register` declares, recorded instead of registered: it is given an object with
 * Fastify's `get` and `post` (the only methods the server's `register…` functions call).
 */
export function declaredRoutes(register: (app: FastifyInstance) => void): DeclaredRoute[] {
  const routes: DeclaredRoute[] = [];
  const declare =
    (method: DeclaredRoute['method']) =>
    (url: string, first: RouteShorthandOptions | Handler, second?: Handler) => {
      routes.push(
        second === undefined
          ? { method, url, options: undefined, handler: first as Handler }
          : { method, url, options: first as RouteShorthandOptions, handler: second },
      );
    };
  register({ get: declare('GET'), post: declare('POST') } as unknown as FastifyInstance);
  return routes;
}

/** Routes registered once, each dispatching to the current generation's handler. */
export class RouteTable {
  #handlers = new Map<string, Handler>();

  /** Registers `routes` with `app` and makes their handlers current. */
  install(app: FastifyInstance, routes: readonly DeclaredRoute[]): void {
    this.#handlers = handlersOf(routes);
    for (const route of routes) {
      const key = `${route.method} ${route.url}`;
      app.route({
        ...route.options,
        method: route.method,
        url: route.url,
        handler: (request, reply) => (this.#handlers.get(key) as Handler)(request, reply),
      });
    }
  }

  /** Makes the handlers of `routes` current (the same routes as installed). */
  swap(routes: readonly DeclaredRoute[]): void {
    const next = handlersOf(routes);
    for (const key of this.#handlers.keys()) {
      if (!next.has(key))
        throw new Error(`route table: ${key} has no handler in the new generation`);
    }
    this.#handlers = next;
  }
}

function handlersOf(routes: readonly DeclaredRoute[]): Map<string, Handler> {
  return new Map(routes.map((route) => [`${route.method} ${route.url}`, route.handler]));
}
