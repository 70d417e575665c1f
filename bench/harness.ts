/**
 * The benchmark contract. Each `bench/*.bench.ts` file exports `benches`, a list of cases; the
 * runner (`bench/run.ts`) measures them with mitata and prints a table, or one JSON object with
 * `--json`. A case may carry a peer (another project's implementation of the same job), measured
 * in the same run so the speedup compares like with like.
 */
export interface BenchCase {
  /** Dotted name, e.g. `tier.short`; the part before the first dot is the group. */
  readonly name: string;
  /** What one operation is, in a few words (shown in the table). */
  readonly description: string;
  /**
   * One operation. Its return value is consumed so it cannot be optimised away; a returned
   * promise is awaited, so an async operation is timed whole.
   */
  readonly fn: () => unknown;
  /** The same job done by a peer project, measured in the same run. */
  readonly peer?: { readonly name: string; readonly fn: () => unknown };
  /**
   * The name of a case this one contains (listed before it, e.g. the decision an adapter makes):
   * the runner reports the difference as this case's own overhead.
   */
  readonly baseline?: string;
}

/** One measured case. */
export interface BenchResult {
  readonly name: string;
  readonly description: string;
  readonly us_per_op: number;
  readonly p99_us: number;
  readonly peer?: string;
  readonly peer_us_per_op?: number;
  /** Peer time / our time. */
  readonly speedup?: number;
  /** The baseline case, and this case's time beyond it. */
  readonly baseline?: string;
  readonly overhead_us?: number;
}
