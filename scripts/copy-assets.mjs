// Copies the non-TypeScript files the library reads at run time (pipeline manifests and prompts,
// default lexicons in JSON) from src/ to dist/, keeping their relative paths.
import { cpSync, existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const ASSET = /\.(json|md|ya?ml|txt)$/;
const root = new URL('..', import.meta.url).pathname;
const src = join(root, 'src');
const dist = join(root, 'dist');

function walk(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path);
    else if (ASSET.test(name)) cpSync(path, join(dist, relative(src, path)));
  }
}
if (existsSync(src)) walk(src);
