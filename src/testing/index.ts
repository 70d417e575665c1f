/**
 * `triage/testing`: helpers for testing code that talks to LLMs, triage's own tests and users'.
 * The fake LLM server is a real HTTP server on 127.0.0.1 speaking the OpenAI, Anthropic and
 * Ollama wire formats, scriptable per request.
 */
export {
  byModel,
  FakeLlmServer,
  type FakeLlmServerOptions,
  startFakeLlm,
} from './fake-llm-server.js';
export type {
  FakeBehaviour,
  FakeHandler,
  FakeMessage,
  FakeReply,
  FakeRequest,
  FakeRequestOutcome,
  FakeUsage,
  FakeWireFormat,
} from './fake-types.js';
export { streamDeltas } from './wire-shared.js';
