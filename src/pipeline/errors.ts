import { InputError } from '../core/errors.js';

/**
 * The messages given to the pipeline cannot be classified: not a list of messages, an unknown
 * role, an empty target, or a final message of the wrong role for the call (`classify` wants a
 * final user message, `inspect` a final assistant message). The message says which message and
 * what is wrong; it never contains the message text.
 */
export class PipelineInputError extends InputError {
  constructor(message: string) {
    super('pipeline_input_invalid', message);
  }
}
