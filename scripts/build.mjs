// `npm run build` (also `prepare`, so a fresh clone is built by `npm ci`): dist/ from nothing.
//   1. tsc: checks the types and writes the declarations (dist/**/*.d.ts);
//   2. bundle.mjs: the code, bundled by esbuild (dist/*.js), and the assets it reads;
//   3. build-ahead.ts: what is computed at build time rather than at each start (dist/validators/,
//      dist/prebuilt/).
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const run = (...args) => execFileSync(process.execPath, args, { cwd: root, stdio: 'inherit' });

rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
run('node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json');
run('scripts/bundle.mjs');
run('--import', 'tsx', 'scripts/build-ahead.ts');
