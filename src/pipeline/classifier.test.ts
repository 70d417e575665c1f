import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../core/errors.js';
import { loadClassifier } from './classifier.js';
import { checkOutput } from './output.js';
import { type AddClassifier, classifierDir, manifest } from './pipeline.test-helpers.js';
import { loadClassifiers } from './registry.js';
import { STOCK_CLASSIFIER_NAMES } from './stock.js';

let dir: ReturnType<typeof classifierDir>;
let add: AddClassifier;
beforeEach(() => {
  dir = classifierDir();
  add = dir.add;
});
afterEach(() => dir.cleanup());

/** The ConfigError thrown by `fn`, for asserting its source and issues. */
function configError(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error('expected a ConfigError');
}

describe('stock classifiers', () => {
  it('all eight load, in dispatch order, with prompts assembled from the shared fragments', () => {
    const classifiers = loadClassifiers();
    expect(classifiers.map((c) => c.name)).toEqual([...STOCK_CLASSIFIER_NAMES]);
    for (const c of classifiers) {
      expect(c.stock).toBe(true);
      expect(c.systemPrompt).toContain('You are one classifier in a pipeline');
      expect(c.systemPrompt).toContain(`# Classifier: ${c.name}`);
      expect(c.systemPrompt).toContain('- certainty (required)');
      expect(c.systemPrompt).not.toMatch(/\{\{/);
      for (const field of c.reservedFields)
        expect(c.systemPrompt).toContain(`- ${field} (optional)`);
    }
    const tools = classifiers.find((c) => c.name === 'tools');
    expect(tools?.systemPrompt).toContain('"workspace", "web", "communications"');
    const preflight = classifiers.find((c) => c.name === 'preflight');
    expect(preflight?.systemPrompt).toContain('final_reply and ack_reply exclude each other');
    expect(preflight?.outputSchema.not).toEqual({ required: ['final_reply', 'ack_reply'] });
    expect(preflight?.backendSchema.not).toBeUndefined();
  });

  it('the backend schema leaves out what the runtime repairs; the validation schema keeps it', () => {
    const tools = loadClassifiers().find((c) => c.name === 'tools');
    const backend = tools?.backendSchema.properties as Record<string, Record<string, unknown>>;
    const strict = tools?.outputSchema.properties as Record<string, Record<string, unknown>>;
    expect(strict.reason?.maxLength).toBe(120);
    expect(backend.reason?.maxLength).toBeUndefined();
    expect((backend.tools!.items as { enum: string[] }).enum).toContain('browser');
    expect((strict.tools!.items as { enum: string[] }).enum).not.toContain('browser');
    const preflight = loadClassifiers().find((c) => c.name === 'preflight');
    const reply = (schema: Record<string, unknown>) =>
      (schema.properties as Record<string, { properties: { text: Record<string, unknown> } }>)
        .final_reply?.properties.text;
    expect(reply(preflight!.outputSchema)).toMatchObject({
      minLength: 1,
      maxLength: 200,
      pattern: '\\S',
    });
    expect(reply(preflight!.backendSchema)).toEqual({ type: 'string', maxLength: 200 });
  });
});

describe('manifest validation names the file and the field', () => {
  it('accepts a minimal custom classifier and fills defaults', () => {
    const c = loadClassifier(add('sentiment', manifest()));
    expect(c).toMatchObject({
      name: 'sentiment',
      appliesTo: ['user'],
      reservedFields: [],
      dispatchOrder: undefined,
      stock: false,
      fallback: { reason: 'failed', certainty: 'no_signal' },
    });
  });

  it('rejects a name that differs from the folder', () => {
    const error = configError(() => loadClassifier(add('folder_a', manifest({ name: 'other' }))));
    expect(error.message).toContain('folder_a/manifest.json');
    expect(error.issues).toContainEqual({
      path: '/name',
      message: "must equal the folder name 'folder_a'",
    });
  });

  it('rejects unknown keys, bad types and unknown reserved fields', () => {
    const error = configError(() =>
      loadClassifier(
        add('bad', manifest({ colour: 'red', dispatch_order: 'first', reserved_fields: ['mood'] })),
      ),
    );
    const paths = error.issues.map((i) => i.path);
    expect(paths).toContain('/colour');
    expect(paths).toContain('/dispatch_order');
    expect(paths).toContain('/reserved_fields/0');
  });

  it('requires allowed_tools exactly when tools is a reserved field', () => {
    expect(
      configError(() => loadClassifier(add('t1', manifest({ reserved_fields: ['tools'] })))).issues,
    ).toContainEqual({
      path: '/allowed_tools',
      message: 'is required when reserved_fields has tools',
    });
    expect(
      configError(() => loadClassifier(add('t2', manifest({ allowed_tools: ['web'] })))).issues[0]
        ?.path,
    ).toBe('/allowed_tools');
  });

  it('rejects custom fields that reuse reserved names, and required fields that do not exist', () => {
    const error = configError(() =>
      loadClassifier(
        add(
          'clash',
          manifest({
            output_schema: {
              type: 'object',
              properties: { model_tier: { type: 'string' }, reason: { type: 'string' } },
              required: ['missing'],
            },
          }),
        ),
      ),
    );
    expect(error.issues.map((i) => i.path)).toEqual([
      '/output_schema/properties/model_tier',
      '/output_schema/properties/reason',
      '/output_schema/required',
    ]);
  });

  it('rejects an output_schema ajv cannot compile (a misspelt keyword)', () => {
    const error = configError(() =>
      loadClassifier(
        add(
          'typo',
          manifest({
            output_schema: {
              type: 'object',
              properties: { label: { type: 'string', maxLenght: 3 } },
            },
          }),
        ),
      ),
    );
    expect(error.issues[0]?.path).toBe('/output_schema');
    expect(error.issues[0]?.message).toMatch(/maxLenght/);
  });

  it('checks the fallback against the output schema, and forbids reserved fields in it', () => {
    const schema = {
      type: 'object',
      properties: { label: { type: 'string' } },
      required: ['label'],
    };
    expect(
      configError(() => loadClassifier(add('f1', manifest({ output_schema: schema })))).issues[0],
    ).toMatchObject({ path: '/fallback', message: expect.stringContaining('/label is required') });
    expect(
      configError(() =>
        loadClassifier(
          add(
            'f2',
            manifest({
              reserved_fields: ['model_tier'],
              fallback: { reason: 'x', certainty: 'no_signal', model_tier: 'local_fast' },
            }),
          ),
        ),
      ).issues[0]?.path,
    ).toBe('/fallback/model_tier');
    expect(
      configError(() =>
        loadClassifier(add('f3', manifest({ fallback: { reason: 'x', certainty: 'strong' } }))),
      ).issues[0]?.path,
    ).toBe('/fallback/certainty');
  });

  it('reports unreadable files, invalid JSON, empty prompts and unknown placeholders', () => {
    expect(configError(() => loadClassifier(`${dir.root}/nowhere`)).message).toMatch(
      /cannot be read \(ENOENT\)/,
    );
    expect(configError(() => loadClassifier(add('j', '{"name": '))).message).toMatch(
      /cannot be parsed/,
    );
    expect(configError(() => loadClassifier(add('p', manifest(), '  \n'))).message).toMatch(
      /prompt\.md: \(root\) is empty/,
    );
    expect(
      configError(() => loadClassifier(add('u', manifest(), 'Use {{colour}}.'))).message,
    ).toMatch(/unknown placeholder\(s\): \{\{colour\}\}/);
  });
});

describe('custom classifier directories', () => {
  it('adds custom classifiers by folder, replaces a stock one of the same name, honours disable', () => {
    add('sentiment', manifest({ dispatch_order: 15 }));
    add('routing', manifest({ reserved_fields: ['model_tier'] }), 'My own routing prompt.');
    add('_drafts', manifest());
    const classifiers = loadClassifiers({ dirs: [dir.root], disable: ['context_shift'] });
    const names = classifiers.map((c) => c.name);
    expect(names.slice(0, 2)).toEqual(['prompt_injection', 'sentiment']);
    expect(names).not.toContain('context_shift');
    expect(names).not.toContain('_drafts');
    // The replacement has no dispatch_order, so it moves to the end.
    expect(names.at(-1)).toBe('routing');
    expect(classifiers.find((c) => c.name === 'routing')?.systemPrompt).toContain(
      'My own routing prompt.',
    );
  });

  it('rejects an unknown name in disable and a name defined twice', () => {
    expect(configError(() => loadClassifiers({ disable: ['nope'] })).issues).toEqual([
      { path: '/nope', message: 'is not a loaded classifier' },
    ]);
    const other = classifierDir();
    try {
      add('twin', manifest());
      other.add('twin', manifest());
      expect(
        configError(() => loadClassifiers({ dirs: [dir.root, other.root] })).issues[0]?.path,
      ).toBe('/twin');
    } finally {
      other.cleanup();
    }
  });
});

describe('checkOutput', () => {
  const stock = loadClassifiers();
  const get = (name: string) => stock.find((c) => c.name === name)!;

  it('truncates an over-long reason before validating, so it does not fail the output', () => {
    const checked = checkOutput(get('routing'), {
      reason: 'because '.repeat(40),
      certainty: 'strong',
      model_tier: 'local_fast',
    });
    expect(checked.ok).toBe(true);
    if (checked.ok) {
      expect(checked.output.reason.length).toBe(120);
      expect(checked.output.reason.endsWith('…')).toBe(true);
    }
  });

  it('normalises tool aliases and drops the repeats they create', () => {
    const checked = checkOutput(get('tools'), {
      reason: 'r',
      certainty: 'strong',
      tools: ['browser', 'web', 'web_search', 'workspace'],
    });
    expect(checked).toMatchObject({ ok: true, output: { tools: ['web', 'workspace'] } });
  });

  it('sets aside unknown fields and names them', () => {
    const checked = checkOutput(get('routing'), {
      reason: 'r',
      certainty: 'Strong ',
      model_tier: 'local_fast',
      mood: 'happy',
    });
    expect(checked).toEqual({
      ok: true,
      output: { reason: 'r', certainty: 'strong', model_tier: 'local_fast' },
      ignored: ['mood'],
    });
  });

  it('rejects invalid outputs with the field and rule, never the text', () => {
    const cases: [string, unknown, RegExp][] = [
      [
        'routing',
        { reason: 'r', certainty: 'sure', model_tier: 'local_fast' },
        /\/certainty must be one of/,
      ],
      [
        'routing',
        { reason: 'r', certainty: 'strong', model_tier: 'huge' },
        /\/model_tier must be one of/,
      ],
      ['routing', { certainty: 'strong' }, /\/reason is required/],
      [
        'tools',
        { reason: 'r', certainty: 'strong', tools: ['teleport'] },
        /\/tools\/0 must be one of/,
      ],
      [
        'preflight',
        { reason: 'r', certainty: 'strong', final_reply: { text: 'x'.repeat(201) } },
        /final_reply\/text/,
      ],
      [
        'preflight',
        { reason: 'r', certainty: 'strong', final_reply: { text: '   ' } },
        /final_reply\/text/,
      ],
      [
        'preflight',
        {
          reason: 'r',
          certainty: 'strong',
          final_reply: { text: 'Hi' },
          ack_reply: { text: 'On it' },
        },
        /mutually exclusive/,
      ],
      ['memory_retrieval_queries', { reason: 'r', certainty: 'weak' }, /\/queries is required/],
      ['routing', ['not', 'an', 'object'], /must be a JSON object, got an array/],
    ];
    for (const [name, value, message] of cases) {
      const checked = checkOutput(get(name), value);
      expect(checked.ok, JSON.stringify(value)).toBe(false);
      if (!checked.ok) expect(checked.error).toMatch(message);
    }
  });
});
