// The editor's words for agent failures: the editor's table of src/words/failureWords.ts over the
// Failure (src/api/failure.ts) of the reason AgentClient stamps on every error it throws. Read by shape
// (`reasonOf`) so this feature never loads the client bundle just to describe an error.
import { type AgentErrorReason, isPermanentReason, reasonOf } from '../api/agent/agentConstants';
import { failureOf } from '../api/failure';
import { editorWords } from './failureWords';

export type { AgentErrorReason };

/** The stamped reason; an error from anywhere else is `other`. */
export function errorReason(e: unknown): AgentErrorReason {
  return reasonOf(e) ?? 'other';
}

/** The service's Retry-After (ms) carried by the error, if any. */
export function retryAfterOf(e: unknown): number | undefined {
  return failureOf(e).retryAfterMs;
}

/** Failures that polling again cannot fix: stop until the user refreshes. */
export function isPermanent(e: unknown): boolean {
  return isPermanentReason(errorReason(e));
}

/** One sentence for the user with the next step (the editor's table in src/words/failureWords.ts); never includes request details or the key. */
export function describeAgentError(e: unknown): string {
  return editorWords(failureOf(e));
}
