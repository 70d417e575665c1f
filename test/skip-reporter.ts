import type { Reporter, TestModule, Vitest } from 'vitest/node';

/**
 * Lists every skipped test at the end of a run with the reason it was skipped, after the default
 * reporter's summary (which only counts them). Tests skip with a reason by calling
 * `context.skip(reason)` (test/data.ts does it for missing data files); test/skips.test.ts keeps
 * reasonless `it.skip`/`skipIf` out of the code, so other skipped tests were left out by a filter
 * (`-t`, `.only`) or by a hook that failed (reported as a failure already), and are only counted.
 */
export default class SkipReporter implements Reporter {
  #vitest: Vitest | undefined;

  onInit(vitest: Vitest): void {
    this.#vitest = vitest;
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const explained: string[] = [];
    let filtered = 0;
    for (const module of modules) {
      for (const test of module.children.allTests('skipped')) {
        const result = test.result();
        const note = result.state === 'skipped' ? result.note : undefined;
        if (note) {
          explained.push(
            `  ↓ ${module.project.name} ${module.relativeModuleId} > ${test.fullName}\n` +
              `      skipped: ${note}`,
          );
        } else if (test.options.mode !== 'todo') filtered++;
      }
    }
    const logger = this.#vitest?.logger;
    if (!logger) return;
    if (explained.length > 0) {
      logger.log(`\nSkipped, and why (${explained.length}):\n${explained.join('\n')}`);
    }
    if (filtered > 0) {
      const tests = filtered === 1 ? '1 test' : `${filtered} tests`;
      logger.log(
        `\n${tests} not run, with no reason given: left out by -t or .only, or by a failed hook.`,
      );
    }
  }
}
