import type { Ajv, Options } from 'ajv';
import { lazyRequire } from './lazy-require.js';

/**
 * ajv, loaded when a schema is first compiled rather than when triage is imported: loading it
 * costs tens of milliseconds, and most processes never compile a schema at run time (the build
 * compiles triage's own configuration schemas ahead, see `validate.ts`).
 */
const ajv = lazyRequire<typeof import('ajv')>('ajv');

/** A function that returns one ajv instance with `options`, created on the first call. */
export function lazyAjv(options: Options): () => Ajv {
  let instance: Ajv | undefined;
  return () => {
    instance ??= new (ajv().Ajv)(options);
    return instance;
  };
}
