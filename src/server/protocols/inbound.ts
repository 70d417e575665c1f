import type { Target } from '../catalog.js';
import type { ChatRequestBody } from '../decide.js';
import type { PreparedAttempt } from '../proxy.js';
import type { Upstream } from '../upstreams.js';
import type { ClientProtocol } from './client-protocol.js';

/**
 * An endpoint's wire format, as the proxying handler needs it: how a request body is read, what
 * is classified (always a chat request: the tier router and the injection screen read one), and
 * what each upstream is sent (natively, or translated into its wire format).
 */

/** One request, read. */
export interface InboundRequest {
  /** The request as a chat request: what is classified and screened. */
  readonly chat: ChatRequestBody;
  /** Whether the client asked for a stream. */
  readonly stream: boolean;
  /**
   * The body and answer relay of an attempt at `target`, whose upstream is `upstream`. Called
   * unbound (the proxy is handed the function itself): it keeps its state in its closure.
   */
  readonly prepare: (target: Target, upstream: Upstream) => PreparedAttempt;
}

/** A client-facing wire format of a proxied endpoint. */
export interface InboundProtocol {
  /** The `endpoint` label of its metrics, e.g. `chat`, `messages`. */
  readonly endpoint: string;
  readonly client: ClientProtocol;
  /** Reads a parsed body (throws an `HttpError` for a malformed one). */
  read(parsed: unknown): InboundRequest;
  /** Whether an upstream can answer this endpoint (absent: every upstream can). */
  serves?(upstream: Upstream): boolean;
  /** Why a request whose targets all fail {@link serves} is refused (given their providers). */
  unserved?(providers: readonly string[]): string;
}
