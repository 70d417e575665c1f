import { readFileSync } from 'node:fs';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

/**
 * The Node versions `package.json` promises must be ones every installed package accepts: a user
 * on a promised version must never meet a dependency that refuses it.
 */
const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  engines: { node: string };
};
const lock = JSON.parse(readFileSync(new URL('../package-lock.json', import.meta.url), 'utf8')) as {
  packages: Record<string, { engines?: { node?: string } | string[] }>;
};

describe('engines', () => {
  const ours = manifest.engines.node;

  it('promises Node 22 or later only', () => {
    expect(semver.intersects(ours, '<22')).toBe(false);
    expect(semver.satisfies(process.versions.node, ours)).toBe(true);
  });

  it('is a range every locked package accepts', () => {
    const refused: string[] = [];
    for (const [path, entry] of Object.entries(lock.packages)) {
      const engines = entry.engines;
      if (path === '' || engines === undefined || Array.isArray(engines)) continue;
      const theirs = engines.node?.trim();
      if (!theirs || !semver.validRange(theirs)) continue;
      if (!semver.subset(ours, theirs)) refused.push(`${path} (${theirs})`);
    }
    expect(refused).toEqual([]);
  });
});
