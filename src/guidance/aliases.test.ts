import { describe, expect, it } from 'vitest';
import { AllOf, AnyOf, CooldownTracker, Not, Threshold } from '../index.js';
import { contextWithErrors, fail } from './guidance.test-helpers.js';
import {
  AllOfClassifier,
  AnyOfClassifier,
  ClassificationResult,
  type ClassifierConfig,
  ClassifierCooldownTracker,
  classifierConfig,
  DoomLoopClassifier,
  ErrorStreakClassifier,
  type GuidanceClassifier,
  type GuidanceContext,
  GuidanceEngine,
  type GuidanceProviderConfig,
  HighToolCountClassifier,
  LLMClassifier,
  LlmGuidanceClassifier,
  NotClassifier,
  ProgressStallClassifier,
  runClassifiers,
  ThresholdClassifier,
  ToolResult,
  TrajectoryBuilder,
} from './index.js';

/** The original design's names, imported from `triage/guidance` as its users would. */
describe("the original design's public names", () => {
  it('are the very same classes as the native names', () => {
    expect(LLMClassifier).toBe(LlmGuidanceClassifier);
    expect(ClassifierCooldownTracker).toBe(CooldownTracker);
    expect(AllOfClassifier).toBe(AllOf);
    expect(AnyOfClassifier).toBe(AnyOf);
    expect(NotClassifier).toBe(Not);
    expect(ThresholdClassifier).toBe(Threshold);
  });

  it("run the design's composite configuration and its unit test as written there", () => {
    // "Fire only if doom loop AND high tool count"
    const both: GuidanceClassifier = new AllOfClassifier([
      new DoomLoopClassifier({ minRepetitions: 2 }),
      new HighToolCountClassifier({ threshold: 30 }),
    ]);
    // "Fire if any error condition"
    const anyError: GuidanceClassifier = new AnyOfClassifier([
      new ErrorStreakClassifier({ threshold: 3 }),
      new ProgressStallClassifier({ stallThreshold: 5 }),
      new DoomLoopClassifier({ minRepetitions: 4 }),
    ]);
    const context = contextWithErrors(3);
    expect(both.classify(context).relevant).toBe(false);
    const result = anyError.classify(context);
    expect(result.relevant).toBe(true);
    expect(result.confidence).toBeGreaterThanOrEqual(0.5);
    expect(result.reason).toContain('consecutive errors');
    const strict = new ThresholdClassifier(new ErrorStreakClassifier({ threshold: 3 }), 0.8);
    expect(strict.classify(context).relevant).toBe(false);
    expect(new NotClassifier(strict).classify(context).relevant).toBe(true);
  });

  it("track cooldowns with classifier objects, as the design's tracker does", () => {
    const tracker = new ClassifierCooldownTracker();
    const classifier = new ErrorStreakClassifier();
    const config: ClassifierConfig = classifierConfig({ cooldownTurns: 2, maxFiresPerSession: 2 });
    expect(tracker.canFire(classifier, 1, config)).toBe(true);
    tracker.recordFire(classifier, 1);
    expect(tracker.canFire(classifier, 3, config)).toBe(false);
    expect(tracker.canFire('error_streak', 4, config)).toBe(true);
    tracker.recordFire(classifier, 4);
    expect(tracker.canFire(classifier, 100, config)).toBe(false);
    const fired = runClassifiers([{ classifier, config }], contextWithErrors(3), { turn: 200 });
    expect(fired.fired?.result).toEqual(
      expect.objectContaining({
        relevant: true,
        reason: '3 consecutive errors, all the same error',
      }),
    );
  });

  it("build the design's integration test: a session, a builder, a context", () => {
    const session = { id: 'test-session', data: { user: 'u1' } };
    const builder = new TrajectoryBuilder({ session });
    for (let i = 0; i < 5; i++) {
      builder.onEvent({ type: 'tool_invoked', tool: 'test', result: ToolResult.error('fail') });
    }
    const context: GuidanceContext = builder.context;
    expect(context.session).toMatchObject(session);
    const result = new ErrorStreakClassifier({ threshold: 3 }).classify(context);
    expect(result.relevant).toBe(true);
    expect(result.confidence).toBeGreaterThan(0.5);
  });

  it('configure an engine with GuidanceProviderConfig', () => {
    const provider: GuidanceProviderConfig = {
      classifier: new ErrorStreakClassifier({ threshold: 2 }),
      guidance: 'Read the errors: {reason}',
    };
    const engine = new GuidanceEngine({ providers: [provider] });
    engine.onEvent(fail('bash'));
    expect(engine.onEvent(fail('bash')).map((g) => g.message)).toEqual([
      'Read the errors: 2 consecutive errors, all the same error',
    ]);
    expect(ClassificationResult.maybe(0.5).relevant).toBe(true);
  });
});
