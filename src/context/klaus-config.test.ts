import { describe, expect, it } from 'vitest';
import { contextRouterConfig } from './config.js';
import { ContextRouter } from './router.js';

describe("Klaus's router settings", () => {
  it('take their places, the application’s other settings left out', () => {
    const config = contextRouterConfig({
      enable_query_router: true,
      router_local_confidence_threshold: 0.85,
      router_local_margin_threshold: 0.3,
      router_model: 'claude-haiku-4-5',
      router_timeout_ms: 200,
      router_max_tokens: 60,
      router_llm_confidence_threshold: 0.8,
      obsidian_vault_path: '~/notes', // the application's own
      camera_index: 0,
    });
    expect(config).toMatchObject({
      enabled: true,
      localConfidenceThreshold: 0.85,
      localMarginThreshold: 0.3,
      llm: { model: 'claude-haiku-4-5', timeoutMs: 200, maxTokens: 60, confidenceThreshold: 0.8 },
    });
    expect(config).not.toHaveProperty('obsidian_vault_path');
  });

  it('enable_query_router = false sends everything, as Klaus does', () => {
    const router = new ContextRouter({ enable_query_router: false });
    expect(router.classify('Define entropy.')).toMatchObject({
      mode: 'general_contextual',
      source: 'forced',
    });
  });

  it('still names bad values by their place', () => {
    expect(() => contextRouterConfig({ router_timeout_ms: -1 })).toThrow(/\/llm\/timeoutMs/);
  });

  it('leaves a configuration in triage’s names as it is, unknown keys refused', () => {
    expect(() => contextRouterConfig({ colour: 1 })).toThrow(/colour/);
  });
});
