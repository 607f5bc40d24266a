// The agent store's poll timing under DEVINDEX_TEST_TIMING (src/testTiming.ts, issue 31): the product's
// DEFAULT_POLL_TIMING with the test's agent fields. Apart from testTiming.ts so that the activation bundle,
// which reads the watch fields, does not carry the poll schedule. vscode-free.
import { DEFAULT_POLL_TIMING, type PollTiming } from '../agentRun/pollSchedule';
import type { TestTiming } from '../testTiming';

/** The product's agent poll timing with the test's agent fields; undefined when it sets none (the store keeps its default). */
export function pollTimingOf(t: TestTiming): PollTiming | undefined {
  if (t.agentPollFastMs === undefined && t.agentPollMaxMs === undefined && t.agentWaitingMs === undefined)
    return undefined;
  return {
    ...DEFAULT_POLL_TIMING,
    ...(t.agentPollFastMs !== undefined ? { fastMs: t.agentPollFastMs } : {}),
    // A hidden view polls slower, but never past the test's ceiling times the hidden factor.
    ...(t.agentPollMaxMs !== undefined
      ? {
          maxMs: t.agentPollMaxMs,
          hiddenMaxMs: Math.min(DEFAULT_POLL_TIMING.hiddenMaxMs, t.agentPollMaxMs * DEFAULT_POLL_TIMING.hiddenFactor),
        }
      : {}),
    ...(t.agentWaitingMs !== undefined ? { waitingMs: t.agentWaitingMs } : {}),
  };
}
