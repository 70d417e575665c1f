import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { compileConfig } from '../core/validate.js';
import {
  type CapabilityMatch,
  CapabilityMatchSchema,
  CapabilityRegistry,
  CapabilitySelector,
  ClassificationNode,
  ERROR_SEVERITIES,
  ErrorSeverity,
  initialAgentState,
  routeAgent,
  routerConditionalEdge,
  runClassifierStep,
  StepError,
  selectCapabilities,
  type TaskClassifierGuide,
} from './index.js';
import { ScriptedProvider } from './scripted-provider.test-helpers.js';

const ASSISTANT = fileURLToPath(new URL('./testdata/assistant.yaml', import.meta.url));

/** The original design's names, imported from `triage/capabilities` as its users would. */
describe("the original design's public names (capabilities)", () => {
  it('are the native values and types', () => {
    expect(routerConditionalEdge).toBe(routeAgent);
    expect(ClassificationNode.execute).toBe(runClassifierStep);
    expect(ClassificationNode.name).toBe('classifier');
    expect(Object.values(ErrorSeverity)).toEqual([...ERROR_SEVERITIES]);
    const guide: TaskClassifierGuide = {
      instructions: 'Activate when user requests weather information',
      examples: [
        { query: "What's the weather like?", result: true, reason: 'Direct weather request' },
        { query: 'What time is it?', result: false, reason: 'Time request, not weather' },
      ],
    };
    const registry = new CapabilityRegistry([
      { name: 'current_weather', description: 'Current weather and forecasts.', guide },
    ]);
    expect(registry.get('current_weather')?.guide).toEqual(guide);
    const match: CapabilityMatch = { is_match: true, reason: 'Direct weather request' };
    expect(compileConfig(CapabilityMatchSchema, 'reply')(match)).toEqual(match);
    expect(() => compileConfig(CapabilityMatchSchema, 'reply')({ is_match: 'yes' })).toThrow();
  });

  it("use the design's severities and the registry's design methods", () => {
    const error = new StepError(ErrorSeverity.RECLASSIFICATION, 'needs live data');
    expect(error.severity).toBe('RECLASSIFICATION');
    const registry = CapabilityRegistry.fromFile(ASSISTANT);
    expect(registry.getAlwaysActiveCapabilityNames()).toEqual(['respond']);
    expect(registry.getAllCapabilities()).toBe(registry.all());
  });

  it("select capabilities as the design's select_capabilities and ClassificationNode do", async () => {
    const registry = CapabilityRegistry.fromFile(ASSISTANT);
    const provider = new ScriptedProvider((capability) => ({
      isMatch: capability === 'current_weather',
      reason: 'scripted',
    }));
    expect(
      await selectCapabilities({
        task: "What's the weather like?",
        availableCapabilities: registry.getAllCapabilities(),
        provider,
      }),
    ).toEqual(['respond', 'current_weather']);
    const state = initialAgentState({ currentTask: "What's the weather like?" });
    expect(routerConditionalEdge(state)).toMatchObject({ next: 'classifier' });
    const update = await ClassificationNode.execute(
      state,
      new CapabilitySelector({ registry, provider }),
    );
    expect(update.activeCapabilities).toEqual(['respond', 'current_weather']);
  });
});
