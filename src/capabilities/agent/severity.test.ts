import { describe, expect, it } from 'vitest';
import { ConfigError, DecisionTimeoutError } from '../../core/errors.js';
import {
  LlmHttpError,
  LlmInvalidOutputError,
  LlmNetworkError,
  LlmTimeoutError,
} from '../../llm/errors.js';
import { CapabilitySelectionError } from '../errors.js';
import { classifyStepError, StepError } from './severity.js';

const severity = (error: unknown) => classifyStepError(error, 'classifier').severity;
const failure = (retriable: boolean) => ({
  name: 'x',
  cause: 'error' as const,
  error: 'e',
  retriable,
});

describe('classifyStepError', () => {
  it.each([
    ['an LLM timeout', new LlmTimeoutError('p', 100)],
    ['a decision timeout', new DecisionTimeoutError('x', 100)],
    ['a network error', new LlmNetworkError('p', 'reset')],
    ['HTTP 429', new LlmHttpError('p', 429)],
    ['HTTP 503', new LlmHttpError('p', 503)],
    ['a connection reset', Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' })],
    [
      'a fetch failure caused by a refused connection',
      new TypeError('fetch failed', {
        cause: Object.assign(new Error('x'), { code: 'ECONNREFUSED' }),
      }),
    ],
    [
      'a selection whose failures are all transient',
      new CapabilitySelectionError([failure(true), failure(true)]),
    ],
  ])('retries %s', (_name, error) => {
    expect(severity(error)).toBe('RETRIABLE');
  });

  it.each([
    ['HTTP 400', new LlmHttpError('p', 400)],
    ['invalid output', new LlmInvalidOutputError('p', 'not JSON')],
    ['a configuration error', new ConfigError('x', [{ path: '/a', message: 'bad' }])],
    ['a validation error', new TypeError('x is not a function')],
    ['a range error', new RangeError('bad value')],
    ['anything unknown', 'a string was thrown'],
    [
      'a selection with a permanent failure',
      new CapabilitySelectionError([failure(true), failure(false)]),
    ],
  ])('does not retry %s', (_name, error) => {
    expect(severity(error)).toBe('CRITICAL');
  });

  it('keeps the severity a step chose', () => {
    for (const level of [
      'RETRIABLE',
      'REPLANNING',
      'RECLASSIFICATION',
      'CRITICAL',
      'FATAL',
    ] as const) {
      expect(classifyStepError(new StepError(level, 'why'), 'x')).toEqual({
        severity: level,
        message: 'why',
      });
    }
  });

  it('treats an aborted run as fatal', () => {
    expect(severity(new DOMException('aborted', 'AbortError'))).toBe('FATAL');
  });

  it('says which step failed and how, in one line', () => {
    expect(classifyStepError(new LlmHttpError('p', 503), 'classifier').message).toBe(
      'classifier is temporarily unavailable (LlmHttpError: p: HTTP 503)',
    );
  });
});
