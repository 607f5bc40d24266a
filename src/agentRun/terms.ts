// Accepting providers' data terms (addendum, "Accepting terms"): which Exchange calls accept the terms
// a waiting run asks for. Only ever run after the user explicitly agreed; vscode-free and zod-free.
import type { ExchangeCall, ExchangeSummary, PendingApproval } from '../api/agent/agentSchemas';

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
