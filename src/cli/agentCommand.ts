// Placeholder until the agent CLI lands (see docs/ARCHITECTURE.md, "CLI").
export interface CliIo { out(s: string): void; err(s: string): void; env: NodeJS.ProcessEnv }

export async function runAgentCommand(_argv: string[], io: CliIo): Promise<number> {
  io.err('devindex agent: not available in this build yet\n');
  return 2;
}
