import { describe, expect, it } from 'vitest';
import { TrajectoryEventError } from './errors.js';
import { parseTrajectoryEvent } from './events.js';

describe('parseTrajectoryEvent', () => {
  it('accepts every event type and turns ISO timestamps into milliseconds', () => {
    expect(
      parseTrajectoryEvent({ type: 'turn', turn: 2, timestamp: '2024-01-02T03:04:05Z' }),
    ).toEqual({
      type: 'turn',
      turn: 2,
      timestamp: Date.UTC(2024, 0, 2, 3, 4, 5),
    });
    expect(parseTrajectoryEvent({ type: 'turn_end' })).toEqual({ type: 'turn_end' });
    const call = {
      type: 'tool_call',
      callId: 'c',
      tool: 't',
      params: { a: [1] },
      turn: 0,
      timestamp: 5,
    };
    expect(parseTrajectoryEvent(call)).toEqual(call);
    const result = {
      type: 'tool_result',
      callId: 'c',
      result: { success: true, message: 'm', value: null },
    };
    expect(parseTrajectoryEvent(result)).toEqual(result);
    const invoked = { type: 'tool_invoked', tool: 't', result: { success: false } };
    expect(parseTrajectoryEvent(invoked)).toEqual(invoked);
  });

  it('names the place and the field of a bad event', () => {
    const bad: [unknown, string][] = [
      [
        { type: 'tool_result', callId: 'c', result: { sucess: true } },
        'f:3: /result/success is required; /result/sucess is not a known field',
      ],
      [{ type: 'tool_call', callId: 'c' }, 'f:3: /tool is required'],
      [{ type: 'tool_call', callId: 'c', tool: 't', turn: -1 }, 'f:3: /turn must be >= 0'],
      [{ type: 'tool_call', callId: 'c', tool: 't', params: 'x' }, 'f:3: /params must be object'],
      [
        { type: 'turn', timestamp: 'yesterday' },
        'f:3: /timestamp is not an ISO 8601 date or a number',
      ],
      [
        { type: 'message' },
        'f:3: /type must be one of: turn, turn_end, tool_call, tool_result, tool_invoked',
      ],
      [[1], 'f:3: /type must be one of'],
      [null, 'f:3: /type must be one of'],
    ];
    for (const [value, message] of bad) {
      expect(() => parseTrajectoryEvent(value, 'f:3')).toThrow(TrajectoryEventError);
      expect(() => parseTrajectoryEvent(value, 'f:3')).toThrow(message);
    }
  });
});
