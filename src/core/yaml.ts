import { lazyRequire } from './lazy-require.js';

const yaml = lazyRequire<typeof import('yaml')>('yaml');

/** Parses YAML text (the `yaml` package, loaded on first use). Throws on malformed YAML. */
export function parseYaml(text: string): unknown {
  return yaml().parse(text);
}
