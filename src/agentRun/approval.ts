// A run that waits for the caller (addendum, "Exact shapes as of late November 2026", "Accepting terms"): whether it
// waits, and the Exchange calls that accept the data terms it asks for (run only after the user agreed). Pure.
import type { ExchangeCall, ExchangeSummary, PendingApproval } from '../api/agent/exchangeSchemas';

/**
 * Whether the run waits for the caller: it has a `pendingApproval` that is not resolved, whatever its status says (a
 * turn can end `completed` and waiting; the answer is the thread's next turn).
 */
export function isWaiting(run: { pendingApproval?: PendingApproval | null }): boolean {
  const p = run.pendingApproval;
  return p !== undefined && p !== null && (p.resolution === null || p.resolution === undefined);
}

/**
 * The `terms/accept` calls for a waiting run: the ones its `exchange.requiresAction` handed over, or,
 * when the record has none, built from the approval's terms entries (provider, version, digest).
 */
export function termsAcceptCalls(run: {
  pendingApproval?: PendingApproval;
  exchange?: ExchangeSummary;
}): ExchangeCall[] {
  const given = (run.exchange?.requiresAction?.providers ?? []).flatMap((p) => (p.accept ? [p.accept] : []));
  if (given.length) return given;
  return (run.pendingApproval?.terms ?? []).flatMap((t) =>
    t.provider && t.version
      ? [
          {
            provider: 'firecrawl',
            capability: 'terms/accept',
            options: { provider: t.provider, version: t.version, digest: t.digest ?? null, confirmed: true },
          },
        ]
      : [],
  );
}
