import { createRequire } from 'node:module';
import type { Ajv, Options } from 'ajv';

/**
 * ajv, loaded when a schema is first compiled rather than when triage is imported: loading it
 * costs tens of milliseconds, and most processes never compile a schema at run time (the build
 * compiles triage's own configuration schemas ahead, see `validate.ts`). ajv is a CommonJS
 * package, so `require` loads it synchronously, from inside a synchronous validation.
 */
const require = createRequire(import.meta.url);

/** A function that returns one ajv instance with `options`, created on the first call. */
export function lazyAjv(options: Options): () => Ajv {
  let instance: Ajv | undefined;
  return () => {
    if (!instance) {
      const { Ajv: AjvClass } = require('ajv') as typeof import('ajv');
      instance = new AjvClass(options);
    }
    return instance;
  };
}
