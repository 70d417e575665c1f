import { describe, expect, it } from 'vitest';
import { runCli } from '../../../test/built-cli.js';
import { needSharedData } from '../../../test/data.js';

// `triage eval` as a user runs it (the built CLI in a child process) on the public data sets.
describe('triage eval on public data', () => {
  it('measures the capability pre-matcher on CLINC150', async (context) => {
    const clinc = needSharedData(context, 'intent/clinc150_data_full.json');
    const { code, stdout, stderr } = await runCli([
      'eval',
      'capabilities',
      clinc,
      '--every',
      '30',
      '--json',
    ]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const result = JSON.parse(stdout);
    expect(result).toMatchObject({ split: 'test', capabilities: 150, tasks: 150, seeds: [0] });
    expect(result.top1Accuracy).toBeGreaterThan(0.5);
    expect(result.runs).toHaveLength(1);
  });
});
