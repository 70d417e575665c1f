import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCli } from './cli/program.js';
import { parseYaml } from './core/yaml.js';
import { createProvider } from './llm/config.js';
import { createTriageServer } from './server/app.js';
import { parseServerConfig } from './server/config.js';
import { type FakeLlmServer, type FakeRequest, startFakeLlm } from './testing/index.js';

/**
 * The "Moving from …" section of each guide: the origin project's configuration it shows runs
 * unchanged, and the output it shows is what that run prints.
 */

const guide = (name: string) => readFileSync(new URL(`../docs/${name}`, import.meta.url), 'utf8');

/** The text of the section under `heading`, up to the next heading of the same level. */
function section(doc: string, heading: string): string {
  const start = doc.indexOf(`\n## ${heading}\n`);
  expect(start, `a section "## ${heading}"`).toBeGreaterThan(-1);
  const end = doc.indexOf('\n## ', start + heading.length + 4);
  return doc.slice(start, end === -1 ? undefined : end);
}

/** The fenced blocks of a section with this info string, in order. */
function blocks(text: string, info: string): string[] {
  const found: string[] = [];
  const fence = new RegExp(`\`\`\`${info}\\n([\\s\\S]*?)\`\`\``, 'g');
  for (const match of text.matchAll(fence)) found.push(match[1]!);
  return found;
}

/** Runs the CLI, returning its exit code and standard output. */
async function cli(...args: string[]): Promise<{ code: number; out: string }> {
  const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  try {
    const code = await runCli(['node', 'triage', ...args]);
    return { code, out: out.mock.calls.map((call) => String(call[0])).join('') };
  } finally {
    vi.restoreAllMocks();
  }
}

const temp = (name: string, text: string) => {
  const path = join(mkdtempSync(join(tmpdir(), 'triage-moving-')), name);
  writeFileSync(path, text);
  return path;
};

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

describe('docs/context.md: moving from Klaus', () => {
  const text = () => section(guide('context.md'), 'Moving from Klaus');

  it("runs Klaus's config.toml unchanged, printing what the guide shows", async () => {
    const [toml] = blocks(text(), 'toml');
    const commands = blocks(text(), 'sh').join('\n');
    const outputs = blocks(text(), 'text');
    const questions = [...commands.matchAll(/config\.toml "([^"]+)"/g)].map((m) => m[1]!);
    expect(questions.length).toBeGreaterThan(0);
    expect(outputs).toHaveLength(questions.length);
    const file = temp('config.toml', toml!);
    for (const [index, question] of questions.entries()) {
      const { code, out } = await cli('context', '--config', file, question);
      expect(code).toBe(0);
      expect(out).toBe(outputs[index]);
    }
  });
});

describe('docs/tier.md: moving from claw-llm-router', () => {
  const text = () => section(guide('tier.md'), 'Moving from claw-llm-router');

  it("takes claw-llm-router's model ids and /router command unchanged, answering what the guide shows", async () => {
    const [yaml] = blocks(text(), 'yaml');
    const config = parseServerConfig(parseYaml(yaml!), { env: { OPENAI_API_KEY: 'sk-doc' } });
    const server = createTriageServer({
      config,
      env: { OPENAI_API_KEY: 'sk-doc' },
      logDestination: { write: () => undefined } as never,
      processMetrics: false,
    });
    const url = await server.listen({ host: '127.0.0.1', port: 0 });
    try {
      const commands = blocks(text(), 'sh');
      const outputs = blocks(text(), 'text');
      expect(outputs).toHaveLength(commands.length);
      for (const [index, command] of commands.entries()) {
        const path = /localhost:4100(\/\S+)/.exec(command)![1]!;
        const body = /-d '([^']+)'/.exec(command)![1]!;
        const response = await fetch(`${url}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        });
        const json = (await response.json()) as Record<string, unknown> & {
          choices?: { message: { content: string } }[];
        };
        const shown = command.includes('.choices[0].message.content')
          ? json.choices![0]!.message.content
          : JSON.stringify({ tier: json.tier, model: json.model, source: json.source });
        expect(`${shown}\n`).toBe(outputs[index]);
      }
    } finally {
      await server.close();
    }
  });
});

describe('docs/pipeline.md: moving from open-classify', () => {
  const text = () => section(guide('pipeline.md'), 'Moving from open-classify');
  let fake: FakeLlmServer;
  beforeAll(async () => {
    fake = await startFakeLlm();
  });
  afterAll(() => fake.close());

  /** The scripted answers the guide's output comes from (the guide says what they are). */
  function answer(request: FakeRequest) {
    const name = /# Classifier: (\w+)/.exec(request.system ?? '')?.[1] ?? '';
    const extra: Record<string, Record<string, unknown>> = {
      routing: { model_tier: 'local_coding' },
      model_specialization: { model_specialization: 'coding' },
      tools: { tools: ['workspace'] },
      prompt_injection: { risk_level: 'normal' },
      preflight: { ack_reply: { text: 'On it.' } },
      memory_retrieval_queries: { queries: [] },
      conversation_digest: { digest: 'A unit test.', topics: [] },
      context_shift: { shift: 'new_topic' },
    };
    return { json: { reason: 'Test request.', certainty: 'strong', ...extra[name] } };
  }

  it("is open-classify's own example file, which runs unchanged and prints what the guide shows", async () => {
    const [json] = blocks(text(), 'json');
    const fixture = readFileSync(
      new URL('../test/fixtures/open-classify/open-classify.config.json', import.meta.url),
      'utf8',
    );
    expect(JSON.parse(json!)).toEqual(JSON.parse(fixture));
    fake.reply(answer);
    vi.stubEnv('OLLAMA_HOST', fake.url.replace('http://', ''));
    vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    const [command] = blocks(text(), 'sh');
    const message = /"([^"]+)"\s*\|/.exec(command!)![1]!;
    const file = temp('open-classify.config.json', json!);
    const { code, out } = await cli('pipeline', '--config', file, '--json', message);
    expect(code).toBe(0);
    const result = JSON.parse(out);
    const shown = {
      downstream: result.downstream,
      model_recommendation: result.audit.model_recommendation,
      certainty_threshold: result.audit.meta.certainty_threshold,
    };
    const [output] = blocks(text(), 'text');
    expect(JSON.stringify(shown, null, 2)).toBe(output!.trimEnd());
    const models = new Set(fake.chatRequests.map((r) => r.model));
    expect(models).toEqual(new Set(['gemma4:e4b-it-q4_K_M', 'qwen3:1.7b']));
  });
});

describe('docs/guidance.md: coming from the original design', () => {
  it("runs the design's example as the guide shows it, with the design's names", async () => {
    const [code] = blocks(section(guide('guidance.md'), 'Coming from the original design'), 'ts');
    const source = fileURLToPath(new URL('./guidance/index.ts', import.meta.url));
    // Inside the project, so that the test runner compiles it like any module of the project.
    const cache = fileURLToPath(new URL('../node_modules/.cache/', import.meta.url));
    mkdirSync(cache, { recursive: true });
    const dir = mkdtempSync(join(cache, 'triage-guide-'));
    const file = join(dir, 'example.ts');
    writeFileSync(
      file,
      `${code!.replace("from 'triage/guidance'", `from ${JSON.stringify(source)}`)}\nexport { both, anyError, strict, context, tracker };\n`,
    );
    try {
      const example = await import(file);
      const shown = /const context = builder\.context; \/\/ \{ ([^}]+) \}/.exec(code!)![1]!;
      expect(Object.keys(example.context).sort()).toEqual(shown.split(', ').sort());
      expect(example.context.session).toMatchObject({
        id: 'run-7',
        data: { task: 'fix the build' },
      });
      expect(example.anyError.classify(example.context).relevant).toEqual(expect.any(Boolean));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('docs/capabilities.md: coming from the original design', () => {
  let fake: FakeLlmServer;
  beforeAll(async () => {
    fake = await startFakeLlm();
  });
  afterAll(() => fake.close());

  it("runs the design's example as the guide shows it, giving what its comments say", async () => {
    const [code] = blocks(
      section(guide('capabilities.md'), 'Coming from the original design'),
      'ts',
    );
    fake.reply({ json: { is_match: true, reason: 'A weather request.' } });
    const llm = fakeProvider(fake);
    (globalThis as { __triageDocLlm?: unknown }).__triageDocLlm = llm;
    const source = fileURLToPath(new URL('./capabilities/index.ts', import.meta.url));
    const cache = fileURLToPath(new URL('../node_modules/.cache/', import.meta.url));
    mkdirSync(cache, { recursive: true });
    const dir = mkdtempSync(join(cache, 'triage-guide-'));
    const file = join(dir, 'example.ts');
    // The `llm` the example leaves to the reader, and its last statement (a throw, "in a
    // capability that finds it was the wrong choice") kept as a value to look at.
    writeFileSync(
      file,
      `const llm = (globalThis as any).__triageDocLlm;\n${code!
        .replace("from 'triage/capabilities'", `from ${JSON.stringify(source)}`)
        .replace('throw new StepError(', 'export const thrown = new StepError(')}\n` +
        'export { active, registry, state };\n',
    );
    try {
      const example = await import(file);
      expect(example.registry.getAlwaysActiveCapabilityNames()).toEqual(['respond']);
      expect(code).toContain("registry.getAlwaysActiveCapabilityNames(); // ['respond']");
      expect(example.active).toEqual(['respond', 'current_weather']);
      expect(code).toContain(
        `// Task: "What's the weather like?" → ['respond', 'current_weather']`,
      );
      expect(example.thrown.severity).toBe('RECLASSIFICATION');
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await llm.close();
    }
  });
});

/** A provider of the fake LLM server, over HTTP. */
function fakeProvider(fake: FakeLlmServer) {
  return createProvider({
    id: 'doc',
    kind: 'openai',
    model: 'doc-model',
    baseUrl: fake.openAiBaseUrl,
    maxRetries: 0,
  });
}
