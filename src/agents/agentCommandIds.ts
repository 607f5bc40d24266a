// The agent commands' ids, once: `devIndex.agent.<key>`. Registration (register.ts, in the activation
// bundle), the handler map (agentsFeature.ts) and the table of titles and menus (agentCommandTable.ts) derive from these keys.
// Editor-free.

/** The Agent Jobs view. */
export const JOBS_VIEW = 'devIndex.jobs';

export const AGENT_COMMAND_KEYS = [
  'start',
  'cancel',
  'refresh',
  'openResult',
  'openPartialResult',
  'startAgain',
  'openSnapshot',
  'openTrace',
  'copyJobId',
  'remove',
  'followUp',
  'openAnswer',
  'approve',
  'decline',
] as const;

export type AgentCommandKey = (typeof AGENT_COMMAND_KEYS)[number];
export type AgentCommandId = `devIndex.agent.${AgentCommandKey}`;

export function agentCommandId<K extends AgentCommandKey>(key: K): `devIndex.agent.${K}` {
  return `devIndex.agent.${key}`;
}

export const AGENT_COMMAND_IDS: readonly AgentCommandId[] = AGENT_COMMAND_KEYS.map(agentCommandId);

/** Handlers by key, as a map by command id (what the editor registers). */
export type ById<H extends Record<AgentCommandKey, unknown>> = {
  [K in AgentCommandKey as `devIndex.agent.${K}`]: H[K];
};

export function byId<H extends Record<AgentCommandKey, unknown>>(handlers: H): ById<H> {
  return Object.fromEntries(AGENT_COMMAND_KEYS.map((k) => [agentCommandId(k), handlers[k]])) as ById<H>;
}
