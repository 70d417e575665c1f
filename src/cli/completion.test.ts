import { execFileSync } from 'node:child_process';
import { Command, Option } from 'commander';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from './commands/index.js';
import { completionScript, SHELLS } from './completion.js';
import { buildProgram } from './program.js';

/** What bash completes for `words` (the last one being completed) with `script` loaded. */
function bashCompletes(script: string, words: readonly string[]): string[] {
  const quoted = words.map((word) => `'${word}'`).join(' ');
  const out = execFileSync(
    'bash',
    [
      '-c',
      `${script}\nCOMP_WORDS=(${quoted}); COMP_CWORD=${words.length - 1}; _triage; printf '%s\\n' "\${COMPREPLY[@]}"`,
    ],
    { encoding: 'utf8' },
  );
  return out.split('\n').filter((line) => line !== '');
}

describe('triage completion', () => {
  it('covers every registered command in every shell', async () => {
    const program = await buildProgram();
    for (const shell of SHELLS) {
      const script = completionScript(program, shell);
      for (const { name } of COMMANDS) expect(script, `${shell}: ${name}`).toContain(name);
    }
  });

  it('is generated from the registry: a new command and option complete without a list', () => {
    const program = new Command('triage');
    program
      .command('frob')
      .description('frobnicate')
      .addOption(new Option('--mode <m>', 'how').choices(['fast', 'slow']))
      .option('--out <file>', 'where');
    const bash = completionScript(program, 'bash');
    expect(bashCompletes(bash, ['triage', 'fr'])).toEqual(['frob']);
    expect(bashCompletes(bash, ['triage', 'frob', '--'])).toEqual(['--mode', '--out', '--help']);
    expect(bashCompletes(bash, ['triage', 'frob', '--mode', ''])).toEqual(['fast', 'slow']);
    expect(completionScript(program, 'fish')).toContain(
      "complete -c triage -n '__triage_at frob' -l mode -x -a 'fast slow' -d 'how'",
    );
    expect(completionScript(program, 'zsh')).toContain(`(" frob --mode") compadd -- 'fast' 'slow'`);
  });

  it('writes a bash script that parses and completes nested commands and choices', async () => {
    const bash = completionScript(await buildProgram(), 'bash');
    execFileSync('bash', ['-n', '-c', bash]);
    expect(bashCompletes(bash, ['triage', 'eval', ''])).toEqual([
      'capabilities',
      'context',
      'injection',
      'routing',
      'tier',
    ]);
    expect(bashCompletes(bash, ['triage', 'eval', 'tier', '--min-'])).toEqual(['--min-accuracy']);
    expect(bashCompletes(bash, ['triage', 'inject', '--fail-on', ''])).toEqual([
      'suspicious',
      'high_risk',
    ]);
    expect(bashCompletes(bash, ['triage', 'completion', ''])).toEqual(['bash', 'zsh', 'fish']);
  });
});
