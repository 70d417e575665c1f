import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { schemaId } from '../src/core/validate.js';
import { prebuiltFiles, recordModules, standaloneValidators } from './ahead.js';

/**
 * `node --import tsx scripts/build-ahead.ts [dir] [--schemas]` (the last step of `npm run build`):
 * writes the precompiled configuration validators to `<dir>/validators/` and the values computed
 * ahead to `<dir>/prebuilt/`; `dir` is dist/, beside the bundled code that reads them (see
 * `src/core/validate.ts` and `src/core/prebuilt.ts`). Replaces what was there, so nothing from an earlier build
 * survives. With `--schemas`, also writes `<dir>/schemas.json` (each schema by id), for tests.
 */
const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const out = resolve(args.find((arg) => !arg.startsWith('--')) ?? join(root, 'dist'));
const declared = await recordModules(join(root, 'src'));
const outputs = [
  ['validators', standaloneValidators(declared.schemas)],
  ['prebuilt', prebuiltFiles(declared.prebuildables)],
] as const;
for (const [folder, files] of outputs) {
  const dir = join(out, folder);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  let bytes = 0;
  for (const [name, content] of files) {
    writeFileSync(join(dir, name), content);
    bytes += content.length;
  }
  console.log(`${folder}: ${files.size} files, ${Math.round(bytes / 1024)} KB`);
}
if (args.includes('--schemas')) {
  const schemas = Object.fromEntries(declared.schemas.map((schema) => [schemaId(schema), schema]));
  writeFileSync(join(out, 'schemas.json'), JSON.stringify(schemas));
}
// Imported modules may hold timers or handles (a server module's, a cache's): the work is done.
process.exit(0);
