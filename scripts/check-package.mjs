// `npm run test:package`: the package as users get it. Builds and packs it (`npm pack`),
// installs the tarball into an empty project, then, from there:
//   - imports every subpath of `exports` in a fresh process, and checks that none but
//     `triage/server` loads the server's packages (fastify, pino, prom-client, undici), and that
//     only the adapters (`triage/ai-sdk`, …) load their frameworks (optional peers, installed
//     beside the tarball at the versions of our devDependencies);
//   - type-checks a file that imports every subpath (the `types` conditions, NodeNext);
//   - runs the `triage` binary (`--version`, `tier`);
//   - checks that the web console's files stay within their budget (300 KB).
// Slow (a build and an install), so it is a script of its own rather than part of `npm test`.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const SERVER_STACK = ['fastify', 'pino', 'prom-client', 'undici'];
/** The most the web console's files (dist/console/) may add to the package. */
const CONSOLE_BUDGET_BYTES = 300 * 1024;
/** The frameworks of the adapters, and the peer dependencies of those frameworks. */
const FRAMEWORKS = Object.keys(pkg.peerDependencies ?? {});
const ADAPTERS = new Set(
  Object.keys(pkg.exports)
    .filter((subpath) => pkg.exports[subpath].types?.startsWith('./dist/adapters/'))
    .map((subpath) => `${pkg.name}/${subpath.slice(2)}`),
);
const work = mkdtempSync(join(tmpdir(), 'triage-package-'));
const npm = (args, cwd) => execFileSync('npm', args, { cwd, encoding: 'utf8' });
const node = (args, cwd = work) => execFileSync(process.execPath, args, { cwd, encoding: 'utf8' });
let failures = 0;
const check = (ok, what) => {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) failures++;
};

try {
  // Built here rather than by pack's `prepare`, whose output would mix with pack's JSON.
  execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  const packed = JSON.parse(
    npm(['pack', '--json', '--ignore-scripts', '--pack-destination', work], root),
  );
  const tarball = join(work, packed[0].filename);
  // The web console's files (the page and its bundled script) stay small: ≤ 300 KB.
  const consoleBytes = packed[0].files
    .filter((file) => file.path.startsWith('dist/console/'))
    .reduce((sum, file) => sum + file.size, 0);
  check(
    consoleBytes > 0 && consoleBytes <= CONSOLE_BUDGET_BYTES,
    `console assets in the package: ${(consoleBytes / 1024).toFixed(1)} KB (budget ${CONSOLE_BUDGET_BYTES / 1024} KB)`,
  );
  check(
    !packed[0].files.some((file) => file.path.startsWith('docs/images/')),
    'docs/images (README screenshots) are not in the package',
  );
  writeFileSync(join(work, 'package.json'), '{ "name": "consumer", "type": "module" }\n');
  const peers = FRAMEWORKS.map((name) => `${name}@${pkg.devDependencies[name]}`);
  // zod: a peer of @openai/agents.
  const extra = pkg.devDependencies.zod ? [`zod@${pkg.devDependencies.zod}`] : [];
  npm(
    ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball, ...peers, ...extra],
    work,
  );

  const specifiers = Object.keys(pkg.exports)
    .filter((subpath) => subpath !== './package.json')
    .map((subpath) => (subpath === '.' ? pkg.name : `${pkg.name}/${subpath.slice(2)}`));
  for (const specifier of specifiers) {
    // Every package those entries load is CommonJS or ESM: list both kinds as they resolve.
    const code = `
      import { registerHooks } from 'node:module';
      const urls = new Set();
      registerHooks({ resolve(s, c, next) { const r = next(s, c); urls.add(r.url); return r; } });
      const entry = await import('${specifier}');
      const names = Object.keys(entry);
      const packages = new Set([...urls].flatMap((u) => u.match(/node_modules\\/((?:@[^/]+\\/)?[^/]+)\\//g) ?? []).map((m) => m.slice(13, -1)));
      console.log(JSON.stringify({ names: names.length, packages: [...packages] }));`;
    const { names, packages } = JSON.parse(node(['--input-type=module', '-e', code]));
    const server = SERVER_STACK.filter((name) => packages.includes(name));
    const wantServer = specifier === `${pkg.name}/server`;
    check(names > 0, `${specifier} resolves and exports ${names} names`);
    check(
      wantServer ? server.includes('fastify') : server.length === 0,
      `${specifier} loads ${server.length === 0 ? 'none' : server.join(', ')} of the server stack`,
    );
    if (!ADAPTERS.has(specifier)) {
      const frameworks = FRAMEWORKS.filter((name) => packages.includes(name));
      check(
        frameworks.length === 0,
        `${specifier} loads ${frameworks.length === 0 ? 'no' : frameworks.join(', ')} framework`,
      );
    }
  }

  const imports = specifiers.map((s, i) => `import * as entry${i} from '${s}';`).join('\n');
  writeFileSync(
    join(work, 'types.ts'),
    `${imports}\nexport { ${specifiers.map((_, i) => `entry${i}`).join(', ')} };\n`,
  );
  writeFileSync(
    join(work, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        module: 'nodenext',
        moduleResolution: 'nodenext',
        strict: true,
        noEmit: true,
        target: 'es2023',
        types: ['node'],
        typeRoots: [join(root, 'node_modules/@types')],
      },
      files: ['types.ts'],
    }),
  );
  let typed = true;
  try {
    node([join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json']);
  } catch (error) {
    typed = false;
    console.log(error.stdout);
  }
  check(typed, 'every subpath type-checks from the installed package (NodeNext)');

  const bin = join(work, 'node_modules/.bin/triage');
  check(node([bin, '--version']).trim() === pkg.version, `triage --version prints ${pkg.version}`);
  check(/^tier\s+SIMPLE$/m.test(node([bin, 'tier', 'hi'])), 'triage tier hi decides SIMPLE');
} finally {
  rmSync(work, { recursive: true, force: true });
}
if (failures > 0) {
  console.log(`${failures} check(s) failed`);
  process.exitCode = 1;
}
