// Read-only documents on the `devindex-agent:` scheme: a snapshot, a job's result or partial result, its raw trace.
// The path carries everything needed to fetch the content; its last segment is the tab's title
// (`result — <job label>.json`) and its extension picks the editor's language.
import { withoutControls } from '../words/controls';

export const AGENT_SCHEME = 'devindex-agent';

export type AgentDocument =
  | { kind: 'snapshot'; jobId: string; snapshotId: string; artifactKind: string; name?: string; label?: string }
  | { kind: 'result' | 'partial' | 'trace'; jobId: string; label?: string }
  /** A chat run's answer: markdown, opened in the Markdown preview. */
  | { kind: 'answer'; jobId: string; label?: string };

const EXTENSIONS: Record<string, string> = { json: 'json', markdown: 'md', html: 'html', text: 'txt' };
const KINDS_BY_EXTENSION: Record<string, string> = { json: 'json', md: 'markdown', html: 'html', txt: 'text' };
const SEGMENT = /^[A-Za-z0-9_-]{1,128}$/;
const DASH = ' — ';
const TAB_NAMES: Record<'result' | 'partial' | 'trace', string> = {
  result: 'result',
  partial: 'partial result',
  trace: 'trace',
};

/** A name part safe for one path segment: no slashes or control characters, at most `max` characters. */
function tabPart(s: string, max = 40): string {
  const one = withoutControls(s, { lines: 'join', replaceWith: ' ' })
    .replace(/[/\\]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return one.length > max ? `${one.slice(0, max - 1).trimEnd()}…` : one;
}

function named(base: string, label: string | undefined, ext: string): string {
  const l = label ? tabPart(label) : '';
  return `${base}${l ? `${DASH}${l}` : ''}.${ext}`;
}

export function agentDocumentPath(d: AgentDocument): string {
  if (d.kind === 'snapshot') {
    const ext = EXTENSIONS[d.artifactKind] ?? 'txt';
    // The artifact's path without its extension (the document gets its own), else its kind.
    const base = tabPart((d.name ?? d.artifactKind).replace(/\.[A-Za-z0-9]{1,5}$/, ''), 40) || d.artifactKind;
    return `/${d.jobId}/snapshots/${d.snapshotId}/${ext}/${named(base, d.label, ext)}`;
  }
  if (d.kind === 'answer') return `/${d.jobId}/answer/${named('answer', d.label, 'md')}`;
  return `/${d.jobId}/${d.kind}/${named(TAB_NAMES[d.kind], d.label, 'json')}`;
}

/** Parses a path made by `agentDocumentPath`; anything else (a hand-typed URI) is undefined. */
export function parseAgentDocumentPath(path: string): AgentDocument | undefined {
  const m =
    /^\/([^/]+)\/(?:(result|partial|trace)\/[^/]+\.json|snapshots\/([^/]+)\/(json|md|html|txt)\/[^/]+|(answer)\/[^/]+\.md)$/.exec(
      path,
    );
  if (!m || !SEGMENT.test(m[1]!)) return undefined;
  const jobId = m[1]!;
  const label = labelOf(path);
  if (m[5]) return { kind: 'answer', jobId, ...(label ? { label } : {}) };
  if (m[2]) return { kind: m[2] as 'result' | 'partial' | 'trace', jobId, ...(label ? { label } : {}) };
  if (!SEGMENT.test(m[3]!)) return undefined;
  return { kind: 'snapshot', jobId, snapshotId: m[3]!, artifactKind: KINDS_BY_EXTENSION[m[4]!] ?? 'text' };
}

function labelOf(path: string): string | undefined {
  const last = path.slice(path.lastIndexOf('/') + 1).replace(/\.[a-z]+$/, '');
  const i = last.indexOf(DASH);
  return i >= 0 ? last.slice(i + DASH.length) : undefined;
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

/** What a result document holds: the data, else a note that says why there is none (and expiry). */
export function formatResult(v: {
  which: 'result' | 'partial';
  status: string;
  data?: unknown;
  error?: string;
  source: string;
  expiredOn?: string;
}): string {
  if (v.data !== undefined) return prettyJson(v.data);
  const what = v.which === 'partial' ? 'partial result' : 'result';
  const note =
    v.expiredOn !== undefined
      ? `This job expired on the service on ${v.expiredOn}, and no ${what} of it was kept in this editor.`
      : `This job has no ${what} data.`;
  return prettyJson({ status: v.status, error: v.error ?? null, note });
}

/**
 * Raw HTML in an answer is shown as text, never rendered: outside fenced code blocks and code spans,
 * every `<` that does not open an autolink (`<https://…>`) becomes `&lt;`. The service's markdown
 * comes from a model reading web pages; the preview gets its words, not its markup.
 */
export function neutralizeHtml(markdown: string): string {
  let fence: string | undefined;
  return markdown
    .split('\n')
    .map((line) => {
      const f = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
      if (fence) {
        if (f && f[1]![0] === fence[0] && f[1]!.length >= fence.length && line.trim() === f[1]) fence = undefined;
        return line;
      }
      if (f) {
        fence = f[1]!;
        return line;
      }
      if (/^( {4}|\t)/.test(line)) return line;
      // Code spans keep their text; the rest has its tags escaped.
      return line
        .split(/(`+[^`]*`+)/)
        .map((part, i) => (i % 2 === 1 ? part : part.replace(/<(?!(?:https?|mailto):[^\s<>]*>)/gi, '&lt;')))
        .join('');
    })
    .join('\n');
}

/** What an answer document holds: a title, the answer, and where it came from when it is a kept copy. */
export function formatAnswer(v: {
  prompt?: string;
  message?: string;
  status: string;
  error?: string;
  source: string;
  expiredOn?: string;
}): string {
  const title = v.prompt ? `# ${v.prompt.replace(/\s+/g, ' ').trim().slice(0, 200)}\n\n` : '';
  if (v.message !== undefined) {
    const note =
      v.expiredOn !== undefined
        ? `\n\n---\n\n*This job expired on the service on ${v.expiredOn}; this is the answer kept in this editor.*\n`
        : '\n';
    return `${title}${neutralizeHtml(v.message.trimEnd())}${note}`;
  }
  const why =
    v.expiredOn !== undefined
      ? `This job expired on the service on ${v.expiredOn}, and no answer of it was kept in this editor.`
      : v.error
        ? `This run has no answer (${v.status}): ${v.error}`
        : `This run has no answer (${v.status}).`;
  return `${title}*${neutralizeHtml(why)}*\n`;
}
