import { Counter, type Registry } from 'prom-client';

/**
 * The agent stage's Prometheus metrics, registered in the server's registry. Labels come from
 * fixed vocabularies and the configuration (guidance provider ids), never from a client.
 * Token counts are estimates (a quarter of the JSON's characters), as the stage never tokenises.
 */
export class AgentMetrics {
  /** Requests with tools, by what selection did. */
  readonly toolSelections: Counter<'action'>;
  /** Tool definitions removed. */
  readonly toolsRemoved: Counter;
  /** Estimated prompt tokens removed, by feature. */
  readonly tokensRemoved: Counter<'by'>;
  /** Estimated prompt tokens of the requests the stage saw (to compute the share removed). */
  readonly promptTokens: Counter;
  /** Guidance that fired, by provider and what was done (nudged, blocked). */
  readonly guidance: Counter<'provider' | 'action'>;
  /** History messages removed by trimming. */
  readonly messagesTrimmed: Counter;

  constructor(registry: Registry) {
    const registers = [registry];
    this.toolSelections = new Counter({
      name: 'triage_agent_tool_selections_total',
      help: 'Requests with tools, by what tool selection did (pruned, kept_all).',
      labelNames: ['action'] as const,
      registers,
    });
    this.toolsRemoved = new Counter({
      name: 'triage_agent_tools_removed_total',
      help: 'Tool definitions removed from forwarded requests by tool selection.',
      registers,
    });
    this.tokensRemoved = new Counter({
      name: 'triage_agent_tokens_removed_total',
      help: 'Estimated prompt tokens removed from forwarded requests, by feature (tools, trim).',
      labelNames: ['by'] as const,
      registers,
    });
    this.promptTokens = new Counter({
      name: 'triage_agent_prompt_tokens_total',
      help: 'Estimated prompt tokens of the requests the agent stage saw, before any removal.',
      registers,
    });
    this.guidance = new Counter({
      name: 'triage_agent_guidance_total',
      help: 'Guidance that fired on agent requests, by provider and action (nudged, blocked).',
      labelNames: ['provider', 'action'] as const,
      registers,
    });
    this.messagesTrimmed = new Counter({
      name: 'triage_agent_messages_trimmed_total',
      help: 'History messages removed from forwarded requests by context trimming.',
      registers,
    });
  }
}
