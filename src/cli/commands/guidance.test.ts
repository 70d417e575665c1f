import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type FakeLlmServer, startFakeLlm } from '../../testing/index.js';
import { runCli } from '../program.js';

const dir = mkdtempSync(join(tmpdir(), 'triage-guidance-cli-'));
const write = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
const jsonl = (name: string, events: unknown[]) =>
  write(name, events.map((e) => (typeof e === 'string' ? e : JSON.stringify(e))).join('\n'));
const fail = (turn: number, message: string) => ({
  type: 'tool_invoked',
  tool: 'bash',
  params: { cmd: 'npm test' },
  result: { success: false, message },
  turn,
});
const TRAJECTORY = [
  { type: 'turn', turn: 1, timestamp: '2024-05-01T10:00:00Z' },
  { type: 'tool_call', callId: 'c1', tool: 'read_file', params: { path: 'src/a.ts' } },
  { type: 'tool_result', callId: 'c1', result: { success: true, message: 'export {}' } },
  '',
  fail(2, 'FAIL a.test.ts:12'),
  fail(3, 'FAIL a.test.ts:14'),
  fail(4, 'FAIL a.test.ts:15'),
  { type: 'tool_call', callId: 'c5', tool: 'http_post', params: { api_key: 'k' }, turn: 5 },
];

const run = async (...args: string[]) => {
  const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  const code = await runCli(['node', 'triage', 'guidance', ...args]);
  const text = (spy: typeof out) => spy.mock.calls.map((call) => String(call[0])).join('');
  const result = { code, stdout: text(out), stderr: text(err) };
  vi.restoreAllMocks();
  process.exitCode = undefined;
  return result;
};

afterEach(() => vi.restoreAllMocks());

describe('triage guidance', () => {
  it('exits 1 with --fail-on when a named provider (or any) fires, and 2 for an unknown one', async () => {
    const file = jsonl('gate.jsonl', TRAJECTORY);
    expect((await run(file, '--fail-on', 'error_streak')).code).toBe(1);
    expect((await run(file, '--fail-on', 'any', '--json')).code).toBe(1);
    expect((await run(file, '--fail-on', 'doom_loop')).code).toBe(0);
    const unknown = await run(file, '--fail-on', 'nope');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(
      /^triage: --fail-on: no provider nope; the providers are any, .*error_streak.* \(see 'triage guidance --help'\)\n$/,
    );
  });

  it('prints one JSON line with --json, and indented JSON with --pretty', async () => {
    const file = jsonl('json.jsonl', TRAJECTORY);
    const line = await run(file, '--json');
    expect(line.stdout.trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(line.stdout)).toMatchObject({ events: 7 });
    const pretty = await run(file, '--pretty');
    expect(JSON.parse(pretty.stdout)).toEqual(JSON.parse(line.stdout));
    expect(pretty.stdout).toMatch(/^\{\n {2}"events": 7,/);
  });

  it('prints, per turn, the guidance that fires with confidence and reason', async () => {
    const { code, stdout } = await run(jsonl('t.jsonl', TRAJECTORY));
    expect(code).toBe(0);
    expect(stdout).toContain('turn 4\n  error_streak');
    expect(stdout).toMatch(
      /error_streak\s+0\.50 {2}3 consecutive errors, all the same error {2}\(line 7\)/,
    );
    expect(stdout).toContain('    » Your last tool calls failed');
    expect(stdout).toContain("turn 5\n  sensitive_content          0.90  sensitive term 'api key'");
    expect(stdout).toContain(
      '7 events, 5 turns, 5 tool calls: 2 guidance (error_streak 1, sensitive_content 1)',
    );
  });

  it('prints one JSON object with --json', async () => {
    const { stdout } = await run(jsonl('t.jsonl', TRAJECTORY), '--json');
    const report = JSON.parse(stdout);
    expect(report).toMatchObject({
      events: 7,
      turns: 5,
      toolCalls: 5,
      fired: { error_streak: 1, sensitive_content: 1 },
    });
    expect(report.guidance[0]).toMatchObject({
      line: 7,
      turn: 4,
      provider: 'error_streak',
      confidence: 0.5,
      metadata: { errors: ['FAIL a.test.ts:<n>', 'FAIL a.test.ts:<n>', 'FAIL a.test.ts:<n>'] },
    });
    expect(report.failures).toEqual([]);
  });

  it('uses a configuration file', async () => {
    const config = write(
      'g.yaml',
      'providers:\n  - id: retry_limit\n    guidance: "Stop retrying ({reason})."\n    classifier: {type: error_streak, threshold: 2}\n',
    );
    const { stdout } = await run(jsonl('t.jsonl', TRAJECTORY), '--config', config, '--json');
    const report = JSON.parse(stdout);
    expect(
      report.guidance.map((g: { provider: string; turn: number }) => [g.provider, g.turn]),
    ).toEqual([
      ['retry_limit', 3],
      ['retry_limit', 4],
      ['retry_limit', 5], // the streak still stands while the next call is pending
    ]);
    expect(report.guidance[0].message).toBe(
      'Stop retrying (2 consecutive errors, all the same error).',
    );
  });

  it('reports nothing fired on a quiet trajectory', async () => {
    const { stdout } = await run(
      jsonl('q.jsonl', [{ type: 'tool_invoked', tool: 'ls', result: { success: true } }]),
    );
    expect(stdout).toBe('1 events, 1 turns, 1 tool calls: no guidance fired\n');
  });

  it('fails with one line naming the file, line and field for bad input', async () => {
    const cases: [string, string][] = [
      [jsonl('a.jsonl', [{ type: 'turn' }, '{oops']), 'a.jsonl:2: not valid JSON'],
      [
        jsonl('b.jsonl', [{ type: 'tool_invoked', tool: 'x', result: { sucess: true } }]),
        'b.jsonl:1: /result/success is required',
      ],
      [
        jsonl('c.jsonl', [{ type: 'tool_result', callId: 'zz', result: { success: true } }]),
        "c.jsonl:1: tool_result for call 'zz', which is not pending",
      ],
      [
        jsonl('d.jsonl', [
          { type: 'turn', turn: 3 },
          { type: 'turn', turn: 2 },
        ]),
        'd.jsonl:2: turn 2 comes after turn 3',
      ],
      [join(dir, 'missing.jsonl'), 'cannot read'],
    ];
    for (const [file, message] of cases) {
      const { code, stderr } = await run(file);
      expect(code, file).toBe(2);
      expect(stderr).toContain(message);
      expect(stderr.trim().split('\n'), stderr).toHaveLength(1);
    }
    const config = write(
      'bad.yaml',
      'providers:\n  - guidance: x\n    classifier: {type: doom_loop, minRepetitions: 1}\n',
    );
    const { code, stderr } = await run(jsonl('t.jsonl', TRAJECTORY), '--config', config);
    expect(code).toBe(2);
    expect(stderr).toContain('/providers/0/classifier/minRepetitions must be >= 2');
  });
});

describe('triage guidance with an LLM (fake LLM server)', () => {
  let fake: FakeLlmServer;
  beforeAll(async () => {
    fake = await startFakeLlm();
  });
  afterAll(() => fake.close());

  it('asks the configured LLM when its gate fires, and fails open when it does not answer', async () => {
    const config = write(
      'llm.yaml',
      [
        'llm: {id: fake, kind: openai, model: fake-model, maxRetries: 0, baseUrl: "' +
          fake.openAiBaseUrl +
          '"}',
        'providers:',
        '  - id: stuck',
        '    guidance: "Change approach: {reason}"',
        '    classifier:',
        '      type: llm',
        '      question: Is the agent stuck?',
        // Far beyond an answer of the fake server on a busy machine; the hung call waits it out.
        '      timeoutMs: 2000',
        '      gate: {type: error_streak, threshold: 2}',
        '',
      ].join('\n'),
    );
    fake.script(
      { json: { relevant: true, confidence: 0.9, reason: 'same failure' } },
      { hang: true },
    );
    const { code, stdout } = await run(jsonl('t.jsonl', TRAJECTORY), '--config', config, '--json');
    expect(code).toBe(0);
    const report = JSON.parse(stdout);
    // Turn 3: the gate fires, the LLM confirms. Turn 4: the LLM hangs; no guidance, no error.
    expect(report.guidance).toEqual([
      expect.objectContaining({
        turn: 3,
        provider: 'stuck',
        message: 'Change approach: LLM: same failure',
      }),
    ]);
    expect(fake.chatRequests.length).toBeGreaterThanOrEqual(2);
    expect(fake.chatRequests[1]?.outcome).toBe('client-aborted');
  });
});
