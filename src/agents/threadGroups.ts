// The rows of the Agent Jobs tree: a job alone, or the turns of one thread under one row. Pure and
// vscode-free: the tree provider shows what this returns, unit tests check the grouping and the words.
import { creditsText, jobState, stateWords, waitingWords } from './jobState';
import type { AgentJob } from './jobModel';

type JobRow =
  | { kind: 'job'; job: AgentJob }
  /** Two or more turns of one thread, oldest first; the row stands for the latest turn. */
  | { kind: 'thread'; threadId: string; turns: AgentJob[] };

/** Turn order: the service's turn number, then the time the turn was started here. */
function byTurn(a: AgentJob, b: AgentJob): number {
  return (
    (a.threadTurn ?? Number.MAX_SAFE_INTEGER) - (b.threadTurn ?? Number.MAX_SAFE_INTEGER) || a.createdAt - b.createdAt
  );
}

/**
 * Groups jobs by thread. A thread with one job in the list is a plain job row (a single-turn job looks
 * as it always did); rows are newest first by their latest turn.
 */
export function jobRows(jobs: readonly AgentJob[]): JobRow[] {
  const threads = new Map<string, AgentJob[]>();
  for (const j of jobs) if (j.threadId) threads.set(j.threadId, [...(threads.get(j.threadId) ?? []), j]);
  const rows: Array<{ row: JobRow; at: number }> = [];
  const seen = new Set<string>();
  for (const j of jobs) {
    const turns = j.threadId ? threads.get(j.threadId)! : [j];
    if (turns.length < 2) {
      rows.push({ row: { kind: 'job', job: j }, at: j.createdAt });
      continue;
    }
    if (seen.has(j.threadId!)) continue;
    seen.add(j.threadId!);
    const ordered = [...turns].sort(byTurn);
    rows.push({
      row: { kind: 'thread', threadId: j.threadId!, turns: ordered },
      at: Math.max(...ordered.map((t) => t.createdAt)),
    });
  }
  return rows.sort((a, b) => b.at - a.at).map((r) => r.row);
}

/** The turn a thread row stands for: the latest one. */
export function latestTurn(turns: readonly AgentJob[]): AgentJob {
  return turns[turns.length - 1]!;
}

/** A turn's number as shown: the service's, else its place in the list. */
export function turnNumber(turns: readonly AgentJob[], job: AgentJob): number {
  return job.threadTurn ?? turns.indexOf(job) + 1;
}

/** A thread row's description, state first: `completed · 2 turns · 14 credits spent`. */
export function threadDescription(turns: readonly AgentJob[]): string {
  const last = latestTurn(turns);
  const state = jobState(last);
  const parts = [state === 'waiting' ? waitingWords(last) : stateWords(state, last.status), `${turns.length} turns`];
  const spent = turns.reduce((sum, t) => sum + (t.creditsUsed ?? 0), 0);
  if (turns.some((t) => t.creditsUsed !== undefined)) parts.push(`${spent} credits spent`);
  else {
    const c = creditsText(last);
    if (c) parts.push(c);
  }
  return parts.join(' · ');
}
