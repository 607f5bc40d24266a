// What devIndex_waitForAgentJob says: one progress line per meaningful trace step (a phase, an
// agent's end, an artifact, the run's end), never a raw event; and the end of the wait in words (the
// run ended, waits for the user's approval, or is still running at the timeout). Pure; no vscode import.
import type { TraceEvent } from '../api/agent/agentSchemas';
import type { RunFacts } from '../agentRun/runState';
import { approvalWords, endClause, jobState } from '../agentRun/runOutcome';
import { clean } from './modelText';

function clip(s: string, max = 160): string {
  const one = clean(s).replace(/\s+/g, ' ').trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}

/** The line a trace step is worth, or undefined for the steps a model need not hear about. */
export function progressLine(e: TraceEvent): string | undefined {
  const who = e.agent?.name ?? (e.agent?.role && e.agent.role !== 'unknown' ? e.agent.role : undefined);
  switch (e.type) {
    case 'progress.reported':
      return e.message || e.phase
        ? `${clip(e.phase ?? 'progress', 40)}: ${clip(e.message ?? '')}`.replace(/: $/, '')
        : undefined;
    case 'agent.finished':
      return `${who ? clip(who, 40) : 'an agent'} finished${e.outcome ? `: ${clip(e.outcome, 40)}` : ''}`;
    case 'artifact.updated': {
      const a = e.artifact;
      if (!a) return undefined;
      const items = a.itemCount !== undefined ? `, ${a.itemCount} item${a.itemCount === 1 ? '' : 's'}` : '';
      return `artifact ${clip(a.artifactId ?? a.path ?? a.kind ?? '?', 60)} ${clip(a.change ?? 'updated', 20)}${items}`;
    }
    case 'run.finished':
      return `run finished: ${clip(e.outcome ?? 'unknown outcome', 40)}`;
    default:
      if (e.type.startsWith('approval.')) return "waiting for the user's approval";
      return undefined;
  }
}

/** The first line of a wait's answer. */
export function waitHeadline(
  jobId: string,
  facts: RunFacts,
  o: { timedOut: boolean; waiting?: boolean; seconds: number; latest?: string },
): string {
  if (o.waiting && facts.pendingApproval) {
    return (
      `Agent job ${jobId} is waiting for the user's approval ` +
      `(${clip(approvalWords(facts.pendingApproval), 300)}); the wait ended there, ` +
      `and the job goes on only once the user answers.`
    );
  }
  if (o.timedOut) {
    const latest = o.latest ? ` Latest progress: ${o.latest}.` : ' No progress reported yet.';
    return (
      `Agent job ${jobId} is still running after ${o.seconds} s; ` +
      `the wait ended and the job goes on.${latest} Call devIndex_waitForAgentJob again to keep waiting.`
    );
  }
  const state = jobState({ ...facts, prompt: '' });
  return `Agent job ${jobId} ended: ${endClause(state) ?? `status ${clip(facts.status, 40)}`}.`;
}
