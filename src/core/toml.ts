import { lazyRequire } from './lazy-require.js';

const toml = lazyRequire<typeof import('smol-toml')>('smol-toml');

/** Parses TOML text (the `smol-toml` package, loaded on first use). Throws on malformed TOML. */
export function parseToml(text: string): unknown {
  return toml().parse(text);
}
