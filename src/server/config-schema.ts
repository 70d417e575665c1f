import Type, { type Static } from 'typebox';
import { ProviderConfigSchema } from '../llm/config.js';
import { AgentsSectionSchema } from './agents/agents-config.js';
import { BreakerSectionSchema } from './config-breaker.js';
import { CostsSectionSchema, LimitsSectionSchema } from './config-costs.js';
import { ForwardedSectionSchema } from './config-endpoints.js';
import { StateSectionSchema } from './config-state.js';

/**
 * The schema of the routing server's configuration file (docs/server.md): listening and limits,
 * upstream providers, the models of each tier, and the sections of the classifiers it runs.
 * Secrets never appear in it: keys are read from the environment variables it names.
 */

const ENV_NAME = '^[A-Za-z_][A-Za-z0-9_]*$';

/** Default port of `triage serve`. */
export const DEFAULT_PORT = 4100;

/**
 * An upstream: OpenAI-compatible (OpenAI, vLLM, OpenRouter, Ollama `/v1`, LM Studio, …) or
 * Anthropic's Messages API.
 */
export const UpstreamProviderSchema = Type.Object(
  {
    /** Base URL of the API, up to and including `/v1`. */
    baseUrl: Type.String({ pattern: '^https?://[^\\s]+$' }),
    /**
     * The wire format the upstream speaks: `openai` (chat completions at `<baseUrl>/chat/completions`)
     * or `anthropic` (Messages at `<baseUrl>/messages`). Requests in the other format are
     * translated, both ways.
     */
    api: Type.Union([Type.Literal('openai'), Type.Literal('anthropic')], { default: 'openai' }),
    /** Whether the upstream serves OpenAI's Responses API (`<baseUrl>/responses`). */
    responses: Type.Boolean({ default: false }),
    /**
     * The environment variable holding the API key, sent as `Authorization: Bearer` (as
     * `x-api-key` to an `anthropic` upstream).
     */
    apiKeyEnv: Type.Optional(Type.String({ pattern: ENV_NAME })),
    /** Extra request headers, not secrets (e.g. OpenRouter's `HTTP-Referer`). */
    headers: Type.Optional(Type.Record(Type.String(), Type.String())),
    /**
     * Longest wait, in milliseconds, from sending a request to the first byte that can go to the
     * client (the whole body of a non-streamed answer, the first event of a stream). Past it the
     * next model is tried.
     */
    timeoutMs: Type.Integer({ minimum: 1, maximum: 3_600_000, default: 120_000 }),
    /** Longest silence, in milliseconds, once a streamed answer has started. */
    idleTimeoutMs: Type.Integer({ minimum: 1, maximum: 3_600_000, default: 60_000 }),
    /** Longest wait for a TCP (and TLS) connection, in milliseconds. */
    connectTimeoutMs: Type.Integer({ minimum: 1, maximum: 600_000, default: 5_000 }),
    /** Most connections kept to this upstream's origin; absent = no limit. */
    maxConnections: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000 })),
  },
  { additionalProperties: false },
);

/** One model of a tier: `provider/model`, or an object that may override the timeout. */
export const UpstreamModelSchema = Type.Union([
  Type.String({ pattern: '^[^/\\s]+/\\S+$' }),
  Type.Object(
    {
      provider: Type.String({ minLength: 1 }),
      model: Type.String({ minLength: 1 }),
      timeoutMs: Type.Optional(Type.Integer({ minimum: 1, maximum: 3_600_000 })),
    },
    { additionalProperties: false },
  ),
]);

const TierModels = Type.Optional(Type.Array(UpstreamModelSchema));

/** The ordered upstream models of each tier. */
export const TiersSchema = Type.Object(
  { SIMPLE: TierModels, MEDIUM: TierModels, COMPLEX: TierModels, REASONING: TierModels },
  { additionalProperties: false, default: {} },
);

/** Listening, limits, client keys, headers and logs. */
export const ServerOptionsSchema = Type.Object(
  {
    /** Interface to listen on. Default loopback only. */
    host: Type.String({ minLength: 1, default: '127.0.0.1' }),
    port: Type.Integer({ minimum: 0, maximum: 65_535, default: DEFAULT_PORT }),
    /** Largest request body accepted, in bytes (larger: 413). Default 10 MiB. */
    bodyLimitBytes: Type.Integer({ minimum: 1024, maximum: 1024 ** 3, default: 10 * 1024 ** 2 }),
    /**
     * Deepest nesting of arrays and objects in a request body (deeper: 400 before parsing).
     * Parsing cost grows with nesting: 10 MB of nested arrays took seconds.
     */
    maxJsonDepth: Type.Integer({ minimum: 8, maximum: 100_000, default: 128 }),
    /** Most JSON values in a request body (more: 400 before parsing). */
    maxJsonValues: Type.Integer({ minimum: 1_000, maximum: 100_000_000, default: 100_000 }),
    /**
     * Largest upstream answer held whole, in bytes: a non-streamed body or an error body (a
     * stream passes through). A larger one fails over to the next model. Default 16 MiB.
     */
    responseLimitBytes: Type.Integer({
      minimum: 1024,
      maximum: 1024 ** 3,
      default: 16 * 1024 ** 2,
    }),
    /**
     * Longest time, in milliseconds, from receiving a chat request to the first byte of its
     * answer, across every model tried: failures do not add up past it. A request may lower it
     * with the `x-triage-deadline-ms` header.
     */
    deadlineMs: Type.Integer({ minimum: 1, maximum: 3_600_000, default: 300_000 }),
    /**
     * Longest time to receive a whole request (headers and body), in milliseconds; a slower
     * client gets 408. Guards against clients that open requests and never finish them.
     */
    requestTimeoutMs: Type.Integer({ minimum: 1, maximum: 3_600_000, default: 60_000 }),
    /** Send `x-triage-tier`, `-model`, `-confidence` and `-source` on chat responses. */
    decisionHeaders: Type.Boolean({ default: true }),
    /** A model id that is neither routed nor configured: `reject` (404) or `route` it as `auto`. */
    unknownModel: Type.Union([Type.Literal('reject'), Type.Literal('route')], {
      default: 'reject',
    }),
    /** Bearer keys clients must send; absent = no key needed (loopback use). */
    auth: Type.Optional(
      Type.Object(
        {
          /** An environment variable holding client keys, comma-separated. */
          keysEnv: Type.Optional(Type.String({ pattern: ENV_NAME })),
          /** Client keys written in the file (prefer `keysEnv`). */
          keys: Type.Optional(Type.Array(Type.String({ minLength: 8 }))),
        },
        { additionalProperties: false },
      ),
    ),
    /**
     * Who may change the server at run time (`POST /admin/classifier`, the `/router classifier
     * <model>` chat command): a caller presenting an admin key in `x-triage-admin-key`, or one
     * connected over loopback without a proxy in between (`allowLoopback`). Client keys, when
     * configured, are needed as well.
     */
    admin: Type.Object(
      {
        /** An environment variable holding admin keys, comma-separated. */
        keysEnv: Type.Optional(Type.String({ pattern: ENV_NAME })),
        /** Admin keys written in the file (prefer `keysEnv`). */
        keys: Type.Optional(Type.Array(Type.String({ minLength: 16 }))),
        /**
         * A caller on the same machine (loopback address, no `x-forwarded-for`/`forwarded`
         * header) is an admin. Set it to false when a local proxy forwards outside traffic
         * without those headers.
         */
        allowLoopback: Type.Boolean({ default: true }),
      },
      { additionalProperties: false, default: {} },
    ),
    log: Type.Object(
      {
        level: Type.Union(
          ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) =>
            Type.Literal(l),
          ),
          { default: 'info' },
        ),
        /** Log the last user message of each request. Off by default: prompts are private. */
        prompts: Type.Boolean({ default: false }),
      },
      { additionalProperties: false, default: {} },
    ),
  },
  { additionalProperties: false, default: {} },
);

/** What the server does about prompt injections (docs/injection.md for the detector). */
export const InjectionSectionSchema = Type.Object(
  {
    /**
     * Chat completions: `off` (not scanned), `flag` (answered, with an `x-triage-injection`
     * header and a metric) or `block` (refused: 403 with the reason). `POST /v1/route` reports the
     * risk whatever the policy.
     */
    policy: Type.Union([Type.Literal('off'), Type.Literal('flag'), Type.Literal('block')], {
      default: 'off',
    }),
    /** The risk level from which the policy acts. */
    minLevel: Type.Union([Type.Literal('suspicious'), Type.Literal('high_risk')], {
      default: 'high_risk',
    }),
    /**
     * What a text whose risk could not be established (`unknown`: longer than the detector's
     * `maxChars` with nothing found, or the guard's `fallback: unknown`) gets: `allow`, `flag`
     * or `block`. Absent: what the policy does to an attack (it fails closed).
     */
    unknown: Type.Optional(
      Type.Union([Type.Literal('allow'), Type.Literal('flag'), Type.Literal('block')]),
    ),
    /** The detector's configuration (preset, thresholds, patterns): docs/injection.md. */
    detector: Type.Optional(Type.Unknown()),
    /** The LLM check's settings (minConfidence, timeoutMs, …); the LLM is the `llm` section. */
    guard: Type.Optional(Type.Unknown()),
  },
  { additionalProperties: false, default: {} },
);

/** The injection section, validated. */
export type InjectionSection = Static<typeof InjectionSectionSchema>;

/** The web console (docs/console.md). */
export const ConsoleSectionSchema = Type.Object(
  {
    /**
     * `true`: served to every client (behind the client keys when configured); `false`: off (no
     * routes, nothing recorded). Absent: served to requests that arrive on a loopback interface,
     * or to every client when client keys are configured.
     */
    enabled: Type.Optional(Type.Boolean()),
    /** Where the page is served (its files and API are under `/console/`). */
    path: Type.String({ pattern: '^/[^\\s?#]*$', default: '/' }),
  },
  { additionalProperties: false, default: {} },
);

/** The whole configuration file. */
export const ServerConfigSchema = Type.Object(
  {
    server: ServerOptionsSchema,
    /** Upstreams by name; tiers refer to them as `name/model`. */
    providers: Type.Record(Type.String({ pattern: '^[^/\\s]+$' }), UpstreamProviderSchema, {
      default: {},
    }),
    tiers: TiersSchema,
    /**
     * The cheap LLM asked when a local classifier is unsure (docs/llm-providers.md). Absent: the
     * LLM checks are off and every decision is local.
     */
    llm: Type.Optional(ProviderConfigSchema),
    /**
     * The tier router's options (docs/tier.md): weights, boundaries, keywords, forced model ids,
     * the fallback chain, the LLM check's timeout and cache, trained `weights` (read from the file
     * a configuration file names) and a two-way `split`. Absent: the defaults.
     */
    tier: Type.Optional(Type.Unknown()),
    /**
     * The context-policy router's configuration (docs/context.md), for `POST /v1/route`; `false`
     * leaves it out. Absent: the defaults.
     */
    context: Type.Optional(Type.Unknown()),
    injection: InjectionSectionSchema,
    console: ConsoleSectionSchema,
    /** Prices per model and the baseline savings are measured against. */
    costs: CostsSectionSchema,
    /** Rate limits and budgets per client key. */
    limits: LimitsSectionSchema,
    /** The models `/v1/embeddings` and `/v1/completions` forward to (no tier routing). */
    forward: ForwardedSectionSchema,
    /** What the gateway does to agent traffic (tool selection, guidance, trimming); all off. */
    agents: AgentsSectionSchema,
    /** Where the state several instances share is kept: memory (default) or Redis. */
    state: StateSectionSchema,
    /** The circuit breaker of each upstream model: a failing one is skipped for a while. */
    breaker: BreakerSectionSchema,
  },
  { additionalProperties: false },
);

/** A validated configuration, defaults filled in (it holds no secrets). */
export type ServerConfig = Static<typeof ServerConfigSchema>;
/** A provider section of the configuration. */
export type UpstreamProviderConfig = Static<typeof UpstreamProviderSchema>;
