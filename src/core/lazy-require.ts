import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * A CommonJS package, loaded on the first call instead of when triage is imported. For packages
 * that cost tens of milliseconds to load and that many processes never use: ajv (only when a
 * schema is compiled at run time), undici (only when an LLM provider is created), yaml (only when
 * a YAML file is read). `require` loads synchronously, so a synchronous call can use the package.
 */
export function lazyRequire<T>(specifier: string): () => T {
  let loaded: T | undefined;
  return () => {
    loaded ??= require(specifier) as T;
    return loaded;
  };
}
