import { describe, expect, it } from 'vitest';
import { runCli } from '../../../test/built-cli.js';

// The command as a user runs it: standard input of a real child process (the built CLI).
describe('triage context (child process)', () => {
  it('reads the question from standard input when none is given', async () => {
    const { code, stdout } = await runCli(['context', '--json'], {
      input: 'What does this section mean?\n',
    });
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ mode: 'general_contextual', source: 'local' });
  });
});
