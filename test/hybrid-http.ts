import type { DecisionAudit, HybridStats } from '../src/core/hybrid.js';
import type { LlmProvider } from '../src/llm/types.js';
import type { FakeBehaviour } from '../src/testing/index.js';

/**
 * The shared contract of every hybrid decision over HTTP (ARCHITECTURE: a local classifier, a
 * cheap LLM under a strict timeout when it is unsure, a safe fallback). Each subsystem that asks
 * an LLM registers a case by exporting `hybridConformance` from a
 * `src/**\/<name>.hybrid-conformance.ts` file beside it; `hybrid-http.test.ts` runs every case,
 * in every wire format, through the same scenarios against the fake LLM server: the LLM answers,
 * hangs, fails with an HTTP error, sends a malformed body or an answer outside its schema, and a
 * repeated input is answered from the cache.
 */

/** One decision: its audit fields (source, fallback cause, cache, reason) and the value decided. */
export interface HybridVerdict extends DecisionAudit {
  /** The value decided (a tier, a risk level, a mode, whether a capability is selected). */
  readonly value: unknown;
}

/** A subsystem built for one test. */
export interface HybridSubject {
  /** Decides the case's input, one its local classifier is unsure of (so the LLM is asked). */
  decide(): Promise<HybridVerdict>;
  /** Decides a variant of the input that the cache must treat as the same input. */
  decideAgain(): Promise<HybridVerdict>;
  readonly stats: HybridStats;
}

/** One subsystem under test. */
export interface HybridCase {
  /** Shown in test names, e.g. `tier router`. */
  readonly name: string;
  /** Builds the subsystem around `llm`, with this deadline per LLM call, caching or not. */
  create(llm: LlmProvider, options: { timeoutMs: number; cache: boolean }): HybridSubject;
  /** A reply the subsystem takes, and the value it then decides. */
  readonly answer: { readonly reply: FakeBehaviour; readonly value: unknown };
  /** A well-formed reply whose verdict is outside the answer's schema. */
  readonly outsideSchema: FakeBehaviour;
  /** The value of the safe fallback for the input. */
  readonly fallback: unknown;
}
