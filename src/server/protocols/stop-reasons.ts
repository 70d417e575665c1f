/**
 * Why a model stopped, in each vocabulary: OpenAI's `finish_reason` and Anthropic's
 * `stop_reason`. A value with no counterpart becomes the plain end of the answer.
 */

const TO_ANTHROPIC: Readonly<Record<string, string>> = {
  stop: 'end_turn',
  length: 'max_tokens',
  tool_calls: 'tool_use',
  function_call: 'tool_use',
  content_filter: 'refusal',
};

const TO_OPENAI: Readonly<Record<string, string>> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  pause_turn: 'stop',
  max_tokens: 'length',
  model_context_window_exceeded: 'length',
  tool_use: 'tool_calls',
  refusal: 'content_filter',
};

/** An OpenAI `finish_reason` as an Anthropic `stop_reason`. */
export function anthropicStopReason(finishReason: unknown): string {
  return (typeof finishReason === 'string' ? TO_ANTHROPIC[finishReason] : undefined) ?? 'end_turn';
}

/** An Anthropic `stop_reason` as an OpenAI `finish_reason`. */
export function openAiFinishReason(stopReason: unknown): string {
  return (typeof stopReason === 'string' ? TO_OPENAI[stopReason] : undefined) ?? 'stop';
}
