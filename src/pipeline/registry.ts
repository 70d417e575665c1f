import { readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ConfigError, type ConfigIssue } from '../core/errors.js';
import { loadClassifier, type PipelineClassifier } from './classifier.js';
import { sortByDispatchOrder } from './order.js';
import { STOCK_CLASSIFIER_NAMES, STOCK_CLASSIFIERS_DIR } from './stock.js';

/** Which classifiers a pipeline runs. */
export interface ClassifierSelection {
  /** Load the eight stock classifiers. Default true. */
  readonly stock?: boolean;
  /**
   * Directories of custom classifiers: each sub-folder holding a `manifest.json` and a
   * `prompt.md` is one classifier (folders starting with `_` or `.` are skipped). A folder named
   * like a stock classifier replaces it.
   */
  readonly dirs?: readonly string[];
  /** Classifiers not to run, by name. */
  readonly disable?: readonly string[];
}

/**
 * Loads and compiles the selected classifiers, in registry order: `dispatch_order` ascending
 * (classifiers without one last), then load order (stock first, then each directory's folders by
 * name). Throws a {@link ConfigError} for a bad manifest, a name defined twice among custom
 * directories, or an unknown name in `disable`.
 */
export function loadClassifiers(selection: ClassifierSelection = {}): PipelineClassifier[] {
  const byName = new Map<string, PipelineClassifier>();
  if (selection.stock ?? true) {
    for (const name of STOCK_CLASSIFIER_NAMES) {
      byName.set(name, loadClassifier(join(STOCK_CLASSIFIERS_DIR, name), true));
    }
  }
  const customFrom = new Map<string, string>();
  for (const dir of selection.dirs ?? []) {
    for (const folder of classifierFolders(dir)) {
      const classifier = loadClassifier(folder);
      const earlier = customFrom.get(classifier.name);
      if (earlier !== undefined) {
        throw new ConfigError(`classifier directory ${resolve(dir)}`, [
          { path: `/${classifier.name}`, message: `is already defined in ${earlier}` },
        ]);
      }
      customFrom.set(classifier.name, classifier.dir);
      byName.delete(classifier.name); // a replaced stock classifier takes its new place in load order
      byName.set(classifier.name, classifier);
    }
  }
  const issues: ConfigIssue[] = [];
  for (const name of selection.disable ?? []) {
    if (!byName.delete(name))
      issues.push({ path: `/${name}`, message: 'is not a loaded classifier' });
  }
  if (issues.length > 0) throw new ConfigError('disabled classifiers', issues);
  return sortByDispatchOrder([...byName.values()]);
}

function classifierFolders(dir: string): string[] {
  const root = resolve(dir);
  let names: string[];
  try {
    names = readdirSync(root).sort();
  } catch (error) {
    throw new ConfigError(`classifier directory ${root}`, [
      {
        path: '',
        message: `cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
      },
    ]);
  }
  return names
    .filter((name) => !name.startsWith('_') && !name.startsWith('.'))
    .map((name) => join(root, name))
    .filter((path) => statSync(path).isDirectory());
}
