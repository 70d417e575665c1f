/** The OpenAI-compatible routing server (see docs/server.md). */
export { createTriageServer, type TriageServer, type TriageServerOptions } from './app.js';
export {
  clientKeys,
  DEFAULT_PORT,
  parseServerConfig,
  type ServerConfig,
  ServerConfigSchema,
  type TierModel,
  tierModels,
  type UpstreamProviderConfig,
  UpstreamProviderSchema,
} from './config.js';
export type {
  Cancellation,
  ChatRequestBody,
  TierChoice,
  TierRouterPort,
} from './decide.js';
export { errorBody, HttpError, type OpenAiErrorBody } from './errors.js';
export { ServerMetrics } from './metrics.js';
export type { Usage } from './protocols/usage.js';
export {
  type ConfigWatchOptions,
  type ReloadOutcome,
  reloadFrom,
  watchConfig,
} from './reload.js';
export type { RouteSource, Routing, UnknownModelPolicy } from './routing.js';
export type { UsageSummary, UsageTotals } from './usage-ledger.js';
