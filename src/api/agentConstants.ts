// The agent values the addendum names, kept free of zod so that the editor's activation bundle can use them.
export const KNOWN_JOB_STATUSES = ['processing', 'completed', 'failed'] as const;
export const KNOWN_EVENT_TYPES = [
  'run.started', 'run.cancel_requested', 'run.finished', 'agent.started', 'agent.finished',
  'browser.session.started', 'browser.session.finished', 'progress.reported', 'reasoning.summary',
  'tool_call.started', 'tool_call.finished', 'artifact.updated', 'error.occurred',
] as const;
export const KNOWN_OUTCOMES = ['succeeded', 'failed', 'cancelled', 'refused', 'credit_limit_reached'] as const;
export const KNOWN_ERROR_CODES = ['cancelled', 'credit_limit_reached', 'parent_finished', 'refused', 'internal'] as const;

/** completed and failed are final; so is `cancelled`, should the service start reporting it. */
export function isTerminalStatus(status: string): boolean {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}
