import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Admission, AttemptKind, Verdict } from './breaker-store.js';
import { MemoryBreaker } from './memory-breaker.js';

const M = 'fake/mid-a';

function clocked(failures = 3, openMs = 1_000) {
  const clock = { now: 1_000_000 };
  const breaker = new MemoryBreaker(() => clock.now);
  breaker.configure({ enabled: true, failures, openMs });
  const changes: string[] = [];
  breaker.onChange((model, state, shared) =>
    changes.push(`${model} ${state}${shared ? ' shared' : ''}`),
  );
  return { clock, breaker, changes };
}

describe('MemoryBreaker', () => {
  it('opens after the threshold of failures in a row, probes once after openMs, closes on success', () => {
    const { clock, breaker, changes } = clocked();
    for (let i = 0; i < 2; i++) {
      expect(breaker.admit(M, 100)).toBe('pass');
      breaker.report(M, 'pass', 'unhealthy');
    }
    // A healthy answer in between starts the count again.
    breaker.report(M, 'pass', 'healthy');
    for (let i = 0; i < 3; i++) breaker.report(M, 'pass', 'unhealthy');
    expect(breaker.state(M)).toBe('open');
    expect(breaker.openedAt(M)).toBe(1_000_000);
    expect(breaker.admit(M, 100)).toBe('skip');
    clock.now += 1_000;
    expect(breaker.state(M)).toBe('half_open');
    expect(breaker.admit(M, 100)).toBe('probe');
    expect(breaker.admit(M, 100)).toBe('skip');
    breaker.report(M, 'probe', 'healthy');
    expect(breaker.state(M)).toBe('closed');
    expect(breaker.admit(M, 100)).toBe('pass');
    expect(changes).toEqual([`${M} open`, `${M} closed`]);
  });

  it('opens again when the probe fails, and lets another probe out when one brought nothing', () => {
    const { clock, breaker } = clocked(1);
    breaker.report(M, 'pass', 'unhealthy');
    clock.now += 1_000;
    expect(breaker.admit(M, 100)).toBe('probe');
    breaker.report(M, 'probe', 'unhealthy');
    expect(breaker.state(M)).toBe('open');
    expect(breaker.openedAt(M)).toBe(clock.now);
    clock.now += 1_000;
    expect(breaker.admit(M, 100)).toBe('probe');
    breaker.report(M, 'probe', 'unknown');
    expect(breaker.admit(M, 100)).toBe('probe');
    // A probe that never reports is out only for its lease.
    clock.now += 100;
    expect(breaker.admit(M, 100)).toBe('probe');
  });

  it('ignores failures of requests let through before it opened, and a client error says nothing', () => {
    const { breaker } = clocked(1);
    breaker.report(M, 'pass', 'unhealthy');
    const opened = breaker.openedAt(M);
    breaker.report(M, 'pass', 'unhealthy');
    breaker.report(M, 'pass', 'unknown');
    expect(breaker.openedAt(M)).toBe(opened);
  });

  it('lets everything through when turned off, and closes what was open', () => {
    const { breaker, changes } = clocked(1);
    breaker.report(M, 'pass', 'unhealthy');
    breaker.configure({ enabled: false, failures: 1, openMs: 1_000 });
    expect(breaker.admit(M, 100)).toBe('pass');
    breaker.report(M, 'pass', 'unhealthy');
    expect(breaker.state(M)).toBe('closed');
    expect(changes).toEqual([`${M} open`, `${M} closed`]);
  });

  it('adopts the shared state, saying what it opened or closed', () => {
    const { breaker, changes } = clocked();
    breaker.adopt(M, 2, undefined);
    expect(breaker.failures(M)).toBe(2);
    breaker.adopt(M, 0, 999_500);
    expect(breaker.state(M)).toBe('open');
    breaker.adopt(M, 0, undefined);
    expect(changes).toEqual([`${M} open shared`, `${M} closed shared`]);
  });

  it('whatever the outcomes and clock ticks: one probe at a time, opens only at the threshold, closes only on success', () => {
    type Step =
      | { op: 'admit'; lease: number }
      | { op: 'report'; pick: number; verdict: Verdict }
      | { op: 'forced'; verdict: Verdict }
      | { op: 'tick'; ms: number };
    const verdict = fc.constantFrom<Verdict>('healthy', 'unhealthy', 'unknown');
    const step = fc.oneof(
      fc.record({ op: fc.constant('admit' as const), lease: fc.integer({ min: 1, max: 3_000 }) }),
      fc.record({ op: fc.constant('report' as const), pick: fc.nat(), verdict }),
      fc.record({ op: fc.constant('forced' as const), verdict }),
      fc.record({ op: fc.constant('tick' as const), ms: fc.integer({ min: 0, max: 4_000 }) }),
    );
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 1, max: 5_000 }),
        fc.array(step, { maxLength: 120 }),
        (failures, openMs, steps: Step[]) => {
          const { clock, breaker } = clocked(failures, openMs);
          /** Attempts let through and not reported yet (a probe only until its lease ends). */
          let out: { kind: Admission; until: number }[] = [];
          let streak = 0;
          const outcome = (kind: AttemptKind, said: Verdict) => {
            const before = breaker.state(M);
            breaker.report(M, kind, said);
            const after = breaker.state(M);
            if (before === 'closed' && said === 'unhealthy') streak++;
            if (said === 'healthy') streak = 0;
            if (before === 'closed' && after !== 'closed') {
              expect(said).toBe('unhealthy');
              expect(streak).toBe(failures);
              streak = 0;
            }
            if (before === 'closed' && after === 'closed') expect(streak).toBeLessThan(failures);
            if (before !== 'closed' && after === 'closed') expect(said).toBe('healthy');
          };
          for (const s of steps) {
            if (s.op === 'tick') {
              clock.now += s.ms;
              // An attempt never outlives its lease: a probe past it will not report.
              out = out.filter((a) => a.kind !== 'probe' || a.until > clock.now);
            } else if (s.op === 'admit') {
              const state = breaker.state(M);
              const probing = out.some((a) => a.kind === 'probe');
              const admission = breaker.admit(M, s.lease);
              const expected =
                state === 'closed' ? 'pass' : state === 'open' || probing ? 'skip' : 'probe';
              expect(admission).toBe(expected);
              if (admission !== 'skip') out.push({ kind: admission, until: clock.now + s.lease });
            } else if (s.op === 'forced') outcome('forced', s.verdict);
            else if (out.length > 0) {
              const [attempt] = out.splice(s.pick % out.length, 1);
              outcome((attempt as { kind: Admission }).kind, s.verdict);
            }
            expect(out.filter((a) => a.kind === 'probe').length).toBeLessThanOrEqual(1);
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});
