import { randomUUID } from 'node:crypto';
import { ConfigError } from '../core/errors.js';
import { CycleTracker } from './cycles.js';
import { TrajectoryEventError } from './errors.js';
import { contentKey, exactCallKey, nearCallKey } from './fingerprint.js';
import { normaliseErrorMessage } from './normalise.js';
import {
  type TrajectoryOptions,
  type TrajectoryOptionsInput,
  trajectoryOptions,
} from './options.js';
import type {
  DoomLoopPattern,
  GuidanceContext,
  GuidanceSession,
  GuidanceSessionInput,
  ProgressStallPattern,
  ToolCall,
  ToolCallRecord,
  ToolResultInput,
  Trajectory,
  TrajectoryEvent,
  TurnSummary,
} from './types.js';

/** Options of a {@link TrajectoryBuilder}. */
export interface TrajectoryBuilderOptions extends TrajectoryOptionsInput {
  /** The clock for events without a timestamp, in ms since the epoch. Default `Date.now`. */
  readonly now?: () => number;
  /** The session the trajectory belongs to (`context.session`). Default: a new one. */
  readonly session?: GuidanceSessionInput;
}

interface PendingCall {
  readonly call: ToolCall;
  readonly exactKey: number;
  readonly nearKey: number;
}

const NO_PARAMS: Readonly<Record<string, unknown>> = Object.freeze({});

/**
 * Builds a trajectory one event at a time and keeps, as rolling state, everything the guidance
 * classifiers ask: streaks, stalls and tail cycles as counters; the last calls, errors and turns
 * in fixed-size rings. Each event costs O(maxCycleLength + noveltyMemory) whatever the length of
 * the history, which is never rescanned; memory stays bounded by the options.
 *
 * Turns: a call belongs to the turn given in its event, or to the current one (a `turn` event
 * starts the next). A stream without any turn information groups calls as an agent loop makes
 * them: calls requested before any result share a turn, and each `tool_invoked` is a turn.
 *
 * The builder is the trajectory (it implements {@link Trajectory}); `context` is the
 * {@link GuidanceContext} classifiers read, a live view that never needs rebuilding.
 */
export class TrajectoryBuilder implements Trajectory {
  readonly options: TrajectoryOptions;
  /** What classifiers read. Live: it reflects every event applied so far. */
  readonly context: GuidanceContext;
  readonly #now: () => number;

  readonly #records: (ToolCallRecord | undefined)[];
  #length = 0;
  readonly #errors: (ToolCallRecord | undefined)[];
  #errorCount = 0;

  #consecutiveErrors = 0;
  #consecutiveSameError = 0;
  #lastError: string | undefined;
  #sameToolRun = 0;
  #lastTool: string | undefined;

  readonly #nearCycles: CycleTracker;
  readonly #exactCycles: CycleTracker;

  readonly #seenActions: Float64Array;
  readonly #seenOutputs: Float64Array;
  #seenCount = 0;
  #stall = 0;

  #currentTurn = 0;
  #turnCount = 0;
  #turnOpen = false;
  #openCalls = 0;
  #openFirstTool: string | undefined;
  #explicitTurns = false;
  #endedByTurnEnd = false;
  readonly #finishedTurns: Int32Array;
  readonly #finishedCalls: Int32Array;
  readonly #finishedTools: (string | undefined)[];
  #finishedCount = 0;

  #requested = 0;
  #generatedIds = 0;
  readonly #pending = new Map<string, PendingCall>();
  readonly #pendingList: ToolCall[] = [];
  #droppedPending = 0;

  constructor(options: TrajectoryBuilderOptions = {}) {
    const { now, session, ...rest } = options;
    this.options = trajectoryOptions(rest);
    this.#now = now ?? Date.now;
    const started = guidanceSession(session, this.#now());
    const { window, maxCycleLength, noveltyMemory } = this.options;
    if (maxCycleLength > window) {
      throw new ConfigError('trajectory options', [
        { path: '/maxCycleLength', message: `must not exceed window (${window})` },
      ]);
    }
    this.#records = new Array(window).fill(undefined);
    this.#errors = new Array(window).fill(undefined);
    this.#nearCycles = new CycleTracker(maxCycleLength);
    this.#exactCycles = new CycleTracker(maxCycleLength);
    this.#seenActions = new Float64Array(noveltyMemory);
    this.#seenOutputs = new Float64Array(noveltyMemory);
    this.#finishedTurns = new Int32Array(window);
    this.#finishedCalls = new Int32Array(window);
    this.#finishedTools = new Array(window).fill(undefined);
    const builder = this;
    this.context = Object.freeze({
      session: started,
      trajectory: builder as Trajectory,
      get toolCallCount() {
        return builder.#requested;
      },
      get turnCount() {
        return builder.#turnCount;
      },
      get pendingToolCalls(): readonly ToolCall[] {
        return builder.#pendingList;
      },
    });
  }

  /**
   * Applies one event. Returns the record it completed (for `tool_result` and `tool_invoked`).
   * Throws a {@link TrajectoryEventError} for an event that does not fit, leaving the trajectory
   * as it was.
   */
  onEvent(event: TrajectoryEvent): ToolCallRecord | undefined {
    switch (event?.type) {
      case 'turn':
        this.#onTurn(event.turn);
        return undefined;
      case 'turn_end':
        this.#finishTurn();
        this.#endedByTurnEnd = true;
        return undefined;
      case 'tool_call': {
        const call = this.#request(
          event.callId,
          event.tool,
          event.params,
          event.turn,
          event.timestamp,
        );
        if (this.#pending.size >= this.options.maxPending) this.#dropOldestPending();
        const pending: PendingCall = {
          call,
          exactKey: exactCallKey(call.toolName, call.params),
          nearKey: nearCallKey(call.toolName, call.params),
        };
        this.#pending.set(call.callId, pending);
        this.#pendingList.push(call);
        return undefined;
      }
      case 'tool_result': {
        const pending = this.#pending.get(event.callId);
        if (pending === undefined) {
          throw new TrajectoryEventError(
            `tool_result for call '${String(event.callId)}', which is not pending: send its tool_call first, or send one tool_invoked event`,
          );
        }
        const result = checkResult(event.result);
        this.#pending.delete(event.callId);
        this.#pendingList.splice(this.#pendingList.indexOf(pending.call), 1);
        // The calls of one response are all requested before any of them runs.
        if (pending.call.turn === this.#currentTurn) this.#finishTurn();
        return this.#complete(pending, result);
      }
      case 'tool_invoked': {
        const result = checkResult(event.result);
        const callId = event.callId ?? this.#nextCallId();
        const call = this.#request(callId, event.tool, event.params, event.turn, event.timestamp);
        if (!this.#explicitTurns) this.#finishTurn();
        return this.#complete(
          {
            call,
            exactKey: exactCallKey(call.toolName, call.params),
            nearKey: nearCallKey(call.toolName, call.params),
          },
          result,
        );
      }
      default:
        throw new TrajectoryEventError(
          `unknown event type ${JSON.stringify((event as { type?: unknown } | undefined)?.type)}: expected turn, turn_end, tool_call, tool_result or tool_invoked`,
        );
    }
  }

  /** This builder, as the read-only {@link Trajectory}. */
  get trajectory(): Trajectory {
    return this;
  }

  get length(): number {
    return this.#length;
  }

  get consecutiveErrors(): number {
    return this.#consecutiveErrors;
  }

  get consecutiveSameError(): number {
    return this.#consecutiveSameError;
  }

  get sameToolRun(): number {
    return this.#sameToolRun;
  }

  get currentTurn(): number {
    return this.#currentTurn;
  }

  get turnCount(): number {
    return this.#turnCount;
  }

  /** Tool calls requested so far (completed, pending or dropped). */
  get toolCallCount(): number {
    return this.#requested;
  }

  /** Pending calls dropped because more than `maxPending` were pending at once. */
  get droppedPendingCalls(): number {
    return this.#droppedPending;
  }

  fromEnd(i: number): ToolCallRecord | undefined {
    return fromRing(this.#records, this.#length, i);
  }

  recentToolCalls(n: number): ToolCallRecord[] {
    return lastOfRing(this.#records, this.#length, n);
  }

  recentErrors(n: number): ToolCallRecord[] {
    return lastOfRing(this.#errors, this.#errorCount, n);
  }

  finishedTurn(i: number): TurnSummary | undefined {
    const size = this.#finishedTurns.length;
    if (!(i >= 0) || i >= Math.min(this.#finishedCount, size)) return undefined;
    const slot = (this.#finishedCount - 1 - i) % size;
    return {
      turn: this.#finishedTurns[slot]!,
      calls: this.#finishedCalls[slot]!,
      firstTool: this.#finishedTools[slot],
    };
  }

  singleCallTurnRun(accept: (tool: string) => boolean, limit: number): number {
    const size = this.#finishedTurns.length;
    const available = Math.min(this.#finishedCount, size);
    let run = 0;
    let expected = -1;
    for (let i = 0; i < available && run < limit; i++) {
      const slot = (this.#finishedCount - 1 - i) % size;
      const turn = this.#finishedTurns[slot]!;
      // A gap in the numbering is a turn without tool calls: it breaks the run.
      if (expected >= 0 && turn !== expected) break;
      const tool = this.#finishedTools[slot];
      if (this.#finishedCalls[slot] !== 1 || tool === undefined || !accept(tool)) break;
      run++;
      expected = turn - 1;
    }
    return run;
  }

  doomLoop(minCycleLength = 2): DoomLoopPattern | undefined {
    const near = this.#nearCycles;
    let best = 0;
    let bestRepetitions = 1;
    for (let length = Math.max(1, minCycleLength); length <= near.maxLength; length++) {
      const repetitions = near.repetitions(length);
      if (repetitions > bestRepetitions && near.isPrimitive(length)) {
        best = length;
        bestRepetitions = repetitions;
      }
    }
    if (best === 0) return undefined;
    const cycleActions: string[] = [];
    for (let i = best - 1; i >= 0; i--) cycleActions.push(this.fromEnd(i)!.toolName);
    return {
      cycleActions,
      cycleLength: best,
      repetitions: bestRepetitions,
      exactRepetitions: this.#exactCycles.repetitions(best),
    };
  }

  progressStall(): ProgressStallPattern | undefined {
    return this.#stall === 0
      ? undefined
      : { actionsDuringStall: this.#stall, since: this.#length - this.#stall };
  }

  #onTurn(turn: number | undefined): void {
    this.#explicitTurns = true;
    const next = turn ?? this.#currentTurn + 1;
    checkTurn(next, this.#currentTurn);
    if (next > this.#currentTurn || this.#turnCount === 0) this.#startTurn(next);
  }

  /** Registers a requested call in its turn and returns it. */
  #request(
    callId: unknown,
    tool: unknown,
    params: Readonly<Record<string, unknown>> | undefined,
    turn: number | undefined,
    timestamp: number | undefined,
  ): ToolCall {
    if (typeof callId !== 'string' || callId === '') {
      throw new TrajectoryEventError('a tool call needs a non-empty string callId');
    }
    if (typeof tool !== 'string' || tool === '') {
      throw new TrajectoryEventError(`call '${callId}' needs a non-empty string tool name`);
    }
    if (
      params !== undefined &&
      (typeof params !== 'object' || params === null || Array.isArray(params))
    ) {
      throw new TrajectoryEventError(`call '${callId}': params must be an object`);
    }
    if (this.#pending.has(callId)) {
      throw new TrajectoryEventError(`call id '${callId}' is already pending`);
    }
    if (turn !== undefined) checkTurn(turn, this.#currentTurn);
    this.#placeCall(turn);
    this.#openCalls++;
    if (this.#openCalls === 1) this.#openFirstTool = tool;
    this.#requested++;
    return {
      callId,
      toolName: tool,
      params: params ?? NO_PARAMS,
      turn: this.#currentTurn,
      timestamp: timestamp ?? this.#now(),
    };
  }

  /** Makes the call's turn the open one. */
  #placeCall(turn: number | undefined): void {
    if (turn !== undefined) {
      this.#explicitTurns = true;
      if (turn > this.#currentTurn || this.#turnCount === 0) this.#startTurn(turn);
      else this.#reopenTurn();
    } else if (this.#turnOpen) {
      // Joins the open turn.
    } else if (this.#endedByTurnEnd || !this.#explicitTurns || this.#turnCount === 0) {
      // After a turn_end, or without turn information (calls requested before any result share
      // a turn), a call without a turn starts the next one.
      this.#startTurn(this.#currentTurn + 1);
    } else {
      // Explicit turns: a late call of the current turn, finished early by a result.
      this.#reopenTurn();
    }
  }

  #startTurn(turn: number): void {
    this.#finishTurn();
    this.#endedByTurnEnd = false;
    this.#currentTurn = turn;
    this.#turnCount++;
    this.#turnOpen = true;
    this.#openCalls = 0;
    this.#openFirstTool = undefined;
  }

  /** A call for the current turn after it was finished: take it back from the finished ring. */
  #reopenTurn(): void {
    if (this.#turnOpen) return;
    const size = this.#finishedTurns.length;
    const last = (this.#finishedCount - 1) % size;
    if (this.#finishedCount > 0 && this.#finishedTurns[last] === this.#currentTurn) {
      this.#finishedCount--;
      this.#openCalls = this.#finishedCalls[last]!;
      this.#openFirstTool = this.#finishedTools[last];
    } else {
      this.#openCalls = 0;
      this.#openFirstTool = undefined;
    }
    this.#turnOpen = true;
    this.#endedByTurnEnd = false;
  }

  #finishTurn(): void {
    if (!this.#turnOpen) return;
    const size = this.#finishedTurns.length;
    const slot = this.#finishedCount % size;
    this.#finishedTurns[slot] = this.#currentTurn;
    this.#finishedCalls[slot] = this.#openCalls;
    this.#finishedTools[slot] = this.#openFirstTool;
    this.#finishedCount++;
    this.#turnOpen = false;
  }

  #complete(pending: PendingCall, input: ToolResultInput): ToolCallRecord {
    const { call, exactKey, nearKey } = pending;
    const message = input.message ?? '';
    const result =
      input.value === undefined
        ? { success: input.success, message }
        : { success: input.success, message, value: input.value };
    const index = this.#length;
    const record: ToolCallRecord = result.success
      ? { ...call, result, index }
      : { ...call, result, index, normalisedError: normaliseErrorMessage(message) };
    const window = this.#records.length;
    this.#records[index % window] = record;
    this.#length = index + 1;

    if (record.normalisedError === undefined) {
      this.#consecutiveErrors = 0;
      this.#consecutiveSameError = 0;
      this.#lastError = undefined;
    } else {
      this.#errors[this.#errorCount % window] = record;
      this.#errorCount++;
      this.#consecutiveSameError =
        this.#consecutiveErrors > 0 && record.normalisedError === this.#lastError
          ? this.#consecutiveSameError + 1
          : 1;
      this.#consecutiveErrors++;
      this.#lastError = record.normalisedError;
    }
    this.#sameToolRun = call.toolName === this.#lastTool ? this.#sameToolRun + 1 : 1;
    this.#lastTool = call.toolName;

    this.#nearCycles.push(nearKey);
    this.#exactCycles.push(exactKey);

    // Progress: a success that tried something new or produced something new.
    const output = contentKey(message, input.value);
    const progress =
      result.success &&
      !(this.#seen(this.#seenActions, exactKey) && this.#seen(this.#seenOutputs, output));
    const memory = this.#seenActions.length;
    this.#seenActions[this.#seenCount % memory] = exactKey;
    this.#seenOutputs[this.#seenCount % memory] = output;
    this.#seenCount++;
    this.#stall = progress ? 0 : this.#stall + 1;
    return record;
  }

  #seen(memory: Float64Array, key: number): boolean {
    const filled = Math.min(this.#seenCount, memory.length);
    for (let i = 0; i < filled; i++) if (memory[i] === key) return true;
    return false;
  }

  #dropOldestPending(): void {
    const oldest = this.#pendingList.shift()!;
    this.#pending.delete(oldest.callId);
    this.#droppedPending++;
  }

  #nextCallId(): string {
    let id: string;
    do id = `call-${++this.#generatedIds}`;
    while (this.#pending.has(id));
    return id;
  }
}

function checkTurn(turn: unknown, current: number): void {
  if (typeof turn !== 'number' || !Number.isSafeInteger(turn) || turn < 0) {
    throw new TrajectoryEventError(
      `turn must be a non-negative integer, got ${JSON.stringify(turn)}`,
    );
  }
  if (turn < current) {
    throw new TrajectoryEventError(
      `turn ${turn} comes after turn ${current}: turns may not go backwards`,
    );
  }
}

function checkResult(result: ToolResultInput | undefined): ToolResultInput {
  if (typeof result !== 'object' || result === null || typeof result.success !== 'boolean') {
    throw new TrajectoryEventError('a tool result needs a boolean "success"');
  }
  if (result.message !== undefined && typeof result.message !== 'string') {
    throw new TrajectoryEventError('a tool result "message" must be a string');
  }
  return result;
}

function fromRing<T>(ring: readonly (T | undefined)[], count: number, i: number): T | undefined {
  if (!(i >= 0) || i >= Math.min(count, ring.length)) return undefined;
  return ring[(count - 1 - Math.floor(i)) % ring.length];
}

function lastOfRing<T>(ring: readonly (T | undefined)[], count: number, n: number): T[] {
  const take = Math.max(0, Math.min(Math.floor(n), count, ring.length));
  const out: T[] = [];
  for (let i = take - 1; i >= 0; i--) out.push(ring[(count - 1 - i) % ring.length]!);
  return out;
}

/** A session from what was given; throws a `ConfigError` naming the bad field. */
function guidanceSession(input: GuidanceSessionInput | undefined, now: number): GuidanceSession {
  const id = input?.id;
  if (id !== undefined && (typeof id !== 'string' || id.length === 0)) {
    throw new ConfigError('guidance session', [
      { path: '/id', message: 'must be a non-empty string' },
    ]);
  }
  const data = input?.data;
  if (data !== undefined && (data === null || typeof data !== 'object' || Array.isArray(data))) {
    throw new ConfigError('guidance session', [{ path: '/data', message: 'must be an object' }]);
  }
  return Object.freeze({ id: id ?? randomUUID(), startedAt: now, data: data ?? {} });
}
