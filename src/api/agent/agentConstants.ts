/** Internal bookkeeping events: kept in the trace's JSON, folded away from every view of it. */
export const FOLDED_EVENT_TYPES: ReadonlySet<string> = new Set(['usage.recorded']);

/** What a run returns: `chat`, an answer in words (`message`); `extract`, data (`data`). */
export const AGENT_MODES = ['chat', 'extract'] as const;
export type AgentMode = (typeof AGENT_MODES)[number];
/** `exchange.maxCalls` bounds. */
export const EXCHANGE_MAX_CALLS = { min: 1, max: 30 } as const;
/** At most this many toolkits in `exchange.toolkits`. */
export const EXCHANGE_MAX_TOOLKITS = 5;
/** `exchange.onTermsRequired`: skip a provider whose terms are not accepted (the service's default), or ask. */
export const AGENT_ON_TERMS = ['skip', 'ask'] as const;
export type AgentOnTermsRequired = (typeof AGENT_ON_TERMS)[number];

/** The production model, and the service's default. */
export const DEFAULT_AGENT_MODEL = 'spark-2';
/** Model names the service accepts today: the current one first, then retired aliases that run on it. */
export const AGENT_MODELS = ['spark-2', 'spark-1-pro', 'spark-1-mini'] as const;
/** Retired names the service still accepts; it runs them on `spark-2` and reports `spark-2`. */
export const RETIRED_AGENT_MODELS: ReadonlySet<string> = new Set(['spark-1-pro', 'spark-1-mini']);
/** A job's or a thread's id. */
export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** The longest prompt the service takes, in characters. */
export const PROMPT_MAX_LENGTH = 10_000;
export const AGENT_EFFORTS = ['low', 'medium', 'high'] as const;
export type AgentEffort = (typeof AGENT_EFFORTS)[number];

export function isAgentEffort(v: unknown): v is AgentEffort {
  return (AGENT_EFFORTS as readonly unknown[]).includes(v);
}

export function isAgentMode(v: unknown): v is AgentMode {
  return (AGENT_MODES as readonly unknown[]).includes(v);
}

/**
 * The service's named integrations (its `integration` enum); any other value must start with `_`.
 * A value outside both is a 400, so the client never sends one.
 */
export const NAMED_INTEGRATIONS: ReadonlySet<string> = new Set([
  'cli',
  'mcp',
  'dify',
  'zapier',
  'pipedream',
  'raycast',
  'langchain',
  'crewai',
  'llamaindex',
  'n8n',
  'camelai',
  'make',
  'flowise',
  'metagpt',
  'relevanceai',
]);

export function isValidIntegration(v: string): boolean {
  return NAMED_INTEGRATIONS.has(v) || /^_[A-Za-z0-9_.-]{1,100}$/.test(v);
}

/** completed, failed and cancelled are final. */
export function isTerminalStatus(status: string): boolean {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}
