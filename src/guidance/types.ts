/**
 * The data the guidance classifiers read: tool calls, their results, and the events an agent loop
 * reports. A "turn" is one model response; the tool calls of one response share a turn
 * (our corrections to the original design).
 */

/** What a tool call returned. */
export interface ToolResult {
  /** Whether the tool succeeded. */
  readonly success: boolean;
  /** The text the tool returned to the model (its output, or the error message). */
  readonly message: string;
  /** A structured value the tool returned, if any. */
  readonly value?: unknown;
}

/** Factories for {@link ToolResult} values. */
export const ToolResult = {
  /** A successful result. */
  ok(message = '', value?: unknown): ToolResult {
    return value === undefined ? { success: true, message } : { success: true, message, value };
  },
  /** A failed result. */
  error(message: string, value?: unknown): ToolResult {
    return value === undefined ? { success: false, message } : { success: false, message, value };
  },
} as const;

/** A tool call the model requested. */
export interface ToolCall {
  /** Identifies the call; a result names the call it answers by this id. */
  readonly callId: string;
  readonly toolName: string;
  /** The call's arguments. */
  readonly params: Readonly<Record<string, unknown>>;
  /** The turn (model response) that requested it. */
  readonly turn: number;
  /** When it was requested, in milliseconds since the epoch. */
  readonly timestamp: number;
}

/** A completed tool call: the call and its result, in the order results arrived. */
export interface ToolCallRecord extends ToolCall {
  readonly result: ToolResult;
  /** 0-based position in the trajectory. */
  readonly index: number;
  /**
   * For a failed call, its error message with the noise folded (numbers, paths, ids, white
   * space), so that "the same error" can be recognised across retries.
   */
  readonly normalisedError?: string;
}

/** The result carried by an event: `message` may be omitted (empty). */
export interface ToolResultInput {
  readonly success: boolean;
  readonly message?: string;
  readonly value?: unknown;
}

/**
 * A model response begins. `turn` defaults to the previous turn + 1 and may not go backwards.
 * The calls that follow without a turn of their own belong to it.
 */
export interface TurnEvent {
  readonly type: 'turn';
  readonly turn?: number;
  readonly timestamp?: number;
}

/**
 * The current model response is over: no more calls will be added to it. Optional; it lets
 * turn-based classifiers (sequential calls) count the turn at once instead of at the next one.
 */
export interface TurnEndEvent {
  readonly type: 'turn_end';
  readonly timestamp?: number;
}

/** The model requested a tool call. It is pending until its `tool_result`. */
export interface ToolCallEvent {
  readonly type: 'tool_call';
  readonly callId: string;
  readonly tool: string;
  readonly params?: Readonly<Record<string, unknown>>;
  readonly turn?: number;
  readonly timestamp?: number;
}

/** The result of a pending call. */
export interface ToolResultEvent {
  readonly type: 'tool_result';
  readonly callId: string;
  readonly result: ToolResultInput;
  readonly timestamp?: number;
}

/** A call and its result at once (for loops that report calls after running them). */
export interface ToolInvokedEvent {
  readonly type: 'tool_invoked';
  /** Generated (`call-N`) when omitted. */
  readonly callId?: string;
  readonly tool: string;
  readonly params?: Readonly<Record<string, unknown>>;
  readonly result: ToolResultInput;
  readonly turn?: number;
  readonly timestamp?: number;
}

/** One thing that happened in an agent loop, fed to a trajectory one at a time. */
export type TrajectoryEvent =
  | TurnEvent
  | TurnEndEvent
  | ToolCallEvent
  | ToolResultEvent
  | ToolInvokedEvent;

/** A cycle of actions repeated back to back at the tail of the trajectory. */
export interface DoomLoopPattern {
  /** Tool names of one cycle, in the order they last ran. */
  readonly cycleActions: readonly string[];
  /** Calls in one cycle. */
  readonly cycleLength: number;
  /** Complete repetitions of the cycle at the tail, counting near-repeats. */
  readonly repetitions: number;
  /** Complete repetitions with identical params (≤ `repetitions`). */
  readonly exactRepetitions: number;
}

/** Calls in a row that neither succeeded with something new nor tried anything new. */
export interface ProgressStallPattern {
  readonly actionsDuringStall: number;
  /** Index of the first call of the stall. */
  readonly since: number;
}

/** One model response and the calls it made. */
export interface TurnSummary {
  readonly turn: number;
  /** Tool calls requested in this turn. */
  readonly calls: number;
  /** The tool of the turn's first call (`undefined` when it made none). */
  readonly firstTool: string | undefined;
}

/** The read side of a trajectory: what classifiers may ask. */
export interface Trajectory {
  /** Completed calls recorded so far. */
  readonly length: number;
  /** Failed calls in a row at the tail. */
  readonly consecutiveErrors: number;
  /** Of those, how many in a row at the tail share the same normalised error message. */
  readonly consecutiveSameError: number;
  /** Calls in a row at the tail made with the same tool. */
  readonly sameToolRun: number;
  /** The turn being played (0 before any). */
  readonly currentTurn: number;
  /** Turns seen so far. */
  readonly turnCount: number;
  /** The `i`-th most recent completed call (0 = the last), within the retained window. */
  fromEnd(i: number): ToolCallRecord | undefined;
  /** The last `n` completed calls, oldest first (at most the retained window). Allocates. */
  recentToolCalls(n: number): ToolCallRecord[];
  /** The last `n` failed calls, oldest first (at most the retained window). Allocates. */
  recentErrors(n: number): ToolCallRecord[];
  /**
   * The `i`-th most recent finished turn (0 = the last one), within the retained window. A turn
   * is finished when a later turn starts, a `turn_end` arrives, or the result of one of its
   * calls arrives (the calls of one response are requested before any of them runs).
   */
  finishedTurn(i: number): TurnSummary | undefined;
  /**
   * Finished turns in a row, most recent first, that each made exactly one call with a tool that
   * passes `accept`; stops at the first other turn (a gap in turn numbers is a turn without calls)
   * or after `limit`. Allocation-free.
   */
  singleCallTurnRun(accept: (tool: string) => boolean, limit: number): number;
  /** The cycle at the tail with the most repetitions, of length ≥ `minCycleLength`. */
  doomLoop(minCycleLength?: number): DoomLoopPattern | undefined;
  /** The current stall, if the last call made no progress. */
  progressStall(): ProgressStallPattern | undefined;
}

/**
 * The agent session a trajectory belongs to (the original design's `GuidanceContext.session`):
 * who it is, when it started, and what the application keeps about it for its own classifiers.
 */
export interface GuidanceSession {
  /** Identifies the session: the id given, or a random UUID. */
  readonly id: string;
  /** When the session started (the trajectory was created), in ms since the epoch. */
  readonly startedAt: number;
  /**
   * The application's state of the session, read by custom classifiers (the task, the user, a
   * budget…). The object given is kept by reference: what the application changes, classifiers
   * see. Default: an empty object.
   */
  readonly data: Readonly<Record<string, unknown>>;
}

/** A session as given: every field optional. */
export interface GuidanceSessionInput {
  readonly id?: string;
  readonly data?: Readonly<Record<string, unknown>>;
}

/** What a guidance classifier reads (the original design's `GuidanceContext`). */
export interface GuidanceContext {
  /** The session the trajectory belongs to. */
  readonly session: GuidanceSession;
  readonly trajectory: Trajectory;
  /** Tool calls requested so far, completed or pending. */
  readonly toolCallCount: number;
  /** Turns (model responses) so far. */
  readonly turnCount: number;
  /** Calls requested and not yet answered, oldest first. */
  readonly pendingToolCalls: readonly ToolCall[];
}
