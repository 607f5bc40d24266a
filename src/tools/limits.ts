// Agent input bounds the tool schemas state, kept here so that describing the tools does not load the
// agent client (and its zod schemas) before an agent tool is called. test/unit/tools checks that they
// equal src/api/agent.ts's PROMPT_MAX_LENGTH and AGENT_EFFORTS.
export const PROMPT_LIMIT = 10_000;
export const AGENT_EFFORTS_LIST = ['low', 'medium', 'high'] as const;
