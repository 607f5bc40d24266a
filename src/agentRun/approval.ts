// When a run waits for the caller (addendum, "Exact shapes as of late November 2026"): it has a
// `pendingApproval` whose `resolution` is null, whatever its status says. A turn can end waiting
// (`completed` with the approval unresolved); the answer is the thread's next turn. Kept apart from
// runOutcome so that the run engine and the words both read it without an import circle.
import type { PendingApproval } from '../api/agent/agentSchemas';

/** Whether the run waits for the caller: it has a `pendingApproval` that is not resolved, whatever its status says. */
export function isWaiting(run: { pendingApproval?: PendingApproval | null }): boolean {
  const p = run.pendingApproval;
  return p !== undefined && p !== null && (p.resolution === null || p.resolution === undefined);
}
