import { describe, expect, it } from 'vitest';
import { ConfigError } from '../core/errors.js';
import { contextRouterConfig, defaultContextRouterConfig } from './config.js';
import { LocalContextRouter } from './local-router.js';
import { DEFAULT_MODES, GENERAL_CONTEXTUAL, STANDALONE_DEFINITION } from './modes.js';

const issuesOf = (input: unknown) => {
  try {
    contextRouterConfig(input);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).issues.map((issue) => `${issue.path} ${issue.message}`);
  }
  throw new Error('expected a ConfigError');
};

describe('contextRouterConfig', () => {
  it('fills in the original design’s defaults', () => {
    const config = defaultContextRouterConfig();
    expect(config).toMatchObject({
      enabled: true,
      disabledMode: GENERAL_CONTEXTUAL,
      localConfidenceThreshold: 0.75,
      localMarginThreshold: 0.2,
      fallback: { mode: STANDALONE_DEFINITION, confidence: 0.5 },
      llm: { timeoutMs: 350, maxTokens: 80, confidenceThreshold: 0.7 },
    });
    expect(Object.keys(config.modes)).toEqual([
      'standalone_definition',
      'page_grounded_definition',
      'general_contextual',
    ]);
    expect(config.modes.page_grounded_definition!.policy).toEqual({
      useImage: true,
      useHistory: true,
      useMemoryContext: false,
      useNotesContext: false,
      maxSentences: 2,
      historyTurnWindow: 2,
      turnInstruction:
        'Answer the definition request using the relevant page location. Keep the answer to at most two sentences.',
    });
  });

  it('changes one policy field and keeps the rest of the mode', () => {
    const config = contextRouterConfig({
      modes: { standalone_definition: { policy: { maxSentences: 3 } } },
    });
    expect(config.modes.standalone_definition).toEqual({
      ...DEFAULT_MODES.standalone_definition,
      policy: { ...DEFAULT_MODES.standalone_definition.policy, maxSentences: 3 },
    });
  });

  it('does not modify the default table', () => {
    contextRouterConfig({ modes: { standalone_definition: { policy: { useImage: true } } } });
    expect(DEFAULT_MODES.standalone_definition.policy.useImage).toBe(false);
    expect(defaultContextRouterConfig().modes.standalone_definition!.policy.useImage).toBe(false);
  });

  it('adds a mode with its own signal, feature and policy, which the router then chooses', () => {
    const config = contextRouterConfig({
      signals: { code: { phrases: ['stack trace', 'compile (error|errors)', 'segfault'] } },
      features: { code: { weights: { code: 0.9 } } },
      modes: {
        code_help: {
          description: 'questions about code on the page',
          score: { terms: [{ feature: 'code', factor: 1 }] },
          policy: { useMemoryContext: false, maxSentences: 5 },
        },
      },
    });
    expect(config.modes.code_help!.policy).toEqual({
      useImage: true,
      useHistory: true,
      useMemoryContext: false,
      useNotesContext: true,
      maxSentences: 5,
      historyTurnWindow: 0,
      turnInstruction: null,
    });
    const route = new LocalContextRouter(config).route('A segfault in this loop');
    expect(route.mode).toBe('code_help');
    expect(route.policy.maxSentences).toBe(5);
  });

  it('removes an entry given as null, and says what still refers to it', () => {
    const config = contextRouterConfig({
      modes: { page_grounded_definition: null },
    });
    expect(Object.keys(config.modes)).toEqual(['standalone_definition', 'general_contextual']);
    expect(issuesOf({ modes: { standalone_definition: null } })).toEqual([
      '/fallback/mode is not a known mode',
    ]);
    expect(issuesOf({ signals: { deictic: null } })).toEqual([
      '/features/page/weights/deictic is not a known signal',
      '/features/contextual/weights/deictic is not a known signal',
    ]);
  });

  it('checks a returned configuration as it is, without merging the defaults again', () => {
    const config = contextRouterConfig({ modes: { page_grounded_definition: null } });
    expect(Object.keys(contextRouterConfig(config).modes)).toHaveLength(2);
    config.localMarginThreshold = -1;
    expect(() => contextRouterConfig(config)).toThrow('/localMarginThreshold must be >= 0');
  });

  it('names every bad field by its path', () => {
    expect(
      issuesOf({
        localConfidenceThreshold: 1.5,
        llm: { timeout: 300, maxTokens: 0 },
        whenUnsureWithoutLlm: 'ask',
        modes: { general_contextual: { policy: { maxSentences: 0 } } },
      }),
    ).toEqual([
      '/localConfidenceThreshold must be <= 1',
      '/whenUnsureWithoutLlm must be one of: local, fallback',
      '/llm/timeout is not a known field',
      '/llm/maxTokens must be >= 1',
      '/modes/general_contextual/policy/maxSentences does not match any allowed form',
    ]);
  });

  it('rejects references to unknown signals, features and modes', () => {
    expect(
      issuesOf({
        features: { page: { weights: { nowhere: 1 } } },
        modes: {
          extra: {
            description: 'x',
            score: {
              terms: [{ feature: 'missing', factor: 1 }],
              bonuses: [{ add: 1, signals: ['ghost'], above: { phantom: 0 } }],
            },
            policy: {},
          },
        },
        disabledMode: 'off',
      }),
    ).toEqual([
      '/features/page/weights/nowhere is not a known signal',
      '/modes/extra/score/terms/0/feature is not a known feature',
      '/modes/extra/score/bonuses/0/signals/0 is not a known signal',
      '/modes/extra/score/bonuses/0/above/phantom is not a known feature',
      '/disabledMode is not a known mode',
    ]);
  });

  it('rejects signals that cannot match, and malformed phrases', () => {
    expect(
      issuesOf({
        signals: {
          empty: { phrases: [] },
          broken: { phrases: ['(a|b'] },
          hollow: { phrases: ['(x|)'] },
        },
      }),
    ).toEqual([
      '/signals/empty needs at least one phrase or sequence',
      "/signals/broken/phrases/0 unclosed '(' in pattern: (a|b",
      '/signals/hollow/phrases/0 has an empty alternative',
    ]);
  });

  it('rejects a non-object, and a __proto__ key without polluting prototypes', () => {
    expect(issuesOf(42)).toEqual([' must be an object']);
    expect(issuesOf([])).toEqual([' must be an object']);
    expect(issuesOf(JSON.parse('{"__proto__": {"enabled": false}}'))).toEqual([
      '/__proto__ is not a known field',
    ]);
    expect(({} as { enabled?: boolean }).enabled).toBeUndefined();
  });

  it('names the source of the configuration in the message', () => {
    expect(() => contextRouterConfig({ enabled: 'yes' }, 'router.yaml')).toThrow(
      'invalid router.yaml: /enabled must be boolean',
    );
  });
});
