// Read-only documents on the `devindex-agent:` scheme: a snapshot (pretty JSON or markdown by artifact
// kind), a job's result, a job's raw trace. The path carries everything needed to fetch the content,
// and its extension picks the editor's language.

export const AGENT_SCHEME = 'devindex-agent';

export type AgentDocument =
  | { kind: 'snapshot'; jobId: string; snapshotId: string; artifactKind: string }
  | { kind: 'result'; jobId: string }
  | { kind: 'trace'; jobId: string };

const EXTENSIONS: Record<string, string> = { json: 'json', markdown: 'md', html: 'html', text: 'txt' };
const KINDS_BY_EXTENSION: Record<string, string> = { json: 'json', md: 'markdown', html: 'html', txt: 'text' };
const SEGMENT = /^[A-Za-z0-9_-]{1,128}$/;

export function agentDocumentPath(d: AgentDocument): string {
  switch (d.kind) {
    case 'snapshot': return `/${d.jobId}/snapshots/${d.snapshotId}.${EXTENSIONS[d.artifactKind] ?? 'txt'}`;
    case 'result': return `/${d.jobId}/result.json`;
    case 'trace': return `/${d.jobId}/trace.json`;
  }
}

/** Parses a path made by `agentDocumentPath`; anything else (a hand-typed URI) is undefined. */
export function parseAgentDocumentPath(path: string): AgentDocument | undefined {
  const m = /^\/([^/]+)\/(?:(result|trace)\.json|snapshots\/([^/.]+)\.(json|md|html|txt))$/.exec(path);
  if (!m || !SEGMENT.test(m[1]!)) return undefined;
  const jobId = m[1]!;
  if (m[2] === 'result') return { kind: 'result', jobId };
  if (m[2] === 'trace') return { kind: 'trace', jobId };
  if (!SEGMENT.test(m[3]!)) return undefined;
  return { kind: 'snapshot', jobId, snapshotId: m[3]!, artifactKind: KINDS_BY_EXTENSION[m[4]!] ?? 'text' };
}

export function prettyJson(value: unknown): string {
  return `${JSON.stringify(value ?? null, null, 2)}\n`;
}

/** JSON artifacts are JSON text: pretty-printed when it parses, shown as it came when it does not. */
export function formatSnapshot(artifactKind: string, snapshot: string): string {
  if (artifactKind !== 'json') return snapshot;
  try {
    return prettyJson(JSON.parse(snapshot));
  } catch {
    return snapshot;
  }
}
