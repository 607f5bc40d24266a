// Placeholder until the simulated agent engine lands: every agent path answers 404 for now.
export interface AgentRequest { method: string; path: string; query: URLSearchParams; body: unknown; team: string }
export interface AgentReply { status: number; body?: unknown; headers?: Record<string, string> }

export function createAgentService(_o: { speed: number; now?: () => number }): { handle(r: AgentRequest): AgentReply | undefined; close(): void } {
  return {
    handle(r) {
      if (!r.path.startsWith('/v2/agent')) return undefined;
      return { status: 404, body: { success: false, error: 'Not Found' } };
    },
    close() {},
  };
}
