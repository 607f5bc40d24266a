// Pure: one dependency's search results read as fixes its installed version lacks and issues that affect it
// with no fix stated yet, by the version logic every surface shares (src/versions/versionCompare.ts).
import type { SearchResult } from '../api/schemas';
import { resultBadges, type VersionBadge } from '../versions/versionCompare';
import type { AffectingIssue, LackedFix, ResultKind, WorkspaceDependency } from './report';

/** Dotted numbers compared part by part (`2.4.9` < `2.5.1`); only to order fixes a result states, all of them newer. */
function byParts(a: string, b: string): number {
  const x = a.split(/[.+-]/).map((p) => (/^\d+$/.test(p) ? Number(p) : NaN));
  const y = b.split(/[.+-]/).map((p) => (/^\d+$/.test(p) ? Number(p) : NaN));
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const [p, q] = [x[i] ?? 0, y[i] ?? 0];
    if (Number.isNaN(p) || Number.isNaN(q)) return a.localeCompare(b);
    if (p !== q) return p - q;
  }
  return 0;
}

/** The first (lowest) newer fix: the smallest step up that has it. */
function firstNewerFix(badges: readonly VersionBadge[]): string | undefined {
  return badges
    .filter((b) => b.verdict === 'newer-fix')
    .map((b) => b.stated)
    .sort(byParts)[0];
}

type Versioned = Pick<WorkspaceDependency, 'ecosystem' | 'name'> & { repository: string; installed: string };

/**
 * A fix you lack: an issue or pull request stating a fix newer than the installed version. Affecting: one
 * stating the installed version is affected and stating no fix at all. A fix you have, a release
 * announcement alone, or no statement: neither. Each result once (by id), lowest fix first.
 */
export function resultVerdicts(
  results: readonly Pick<SearchResult, 'id' | 'url' | 'title' | 'type' | 'passages'>[],
  dep: Versioned,
): { fixes: LackedFix[]; affecting: AffectingIssue[] } {
  const fixes: LackedFix[] = [];
  const affecting: AffectingIssue[] = [];
  const seen = new Set<string>();
  const installed = { ecosystem: dep.ecosystem, name: dep.name, slug: dep.repository, version: dep.installed };
  for (const r of results) {
    if ((r.type !== 'issue' && r.type !== 'pull_request') || seen.has(r.id)) continue;
    seen.add(r.id);
    const badges = resultBadges(
      r.title,
      r.passages.map((p) => p.text),
      installed,
    );
    const base = { id: r.id, url: r.url, title: r.title ?? r.url, kind: r.type as ResultKind };
    const fixedIn = firstNewerFix(badges);
    if (fixedIn) {
      fixes.push({ ...base, fixedIn });
      continue;
    }
    const affects = badges.find((b) => b.verdict === 'affects-yours');
    if (affects && !badges.some((b) => b.kind === 'fixed')) affecting.push({ ...base, affects: affects.stated });
  }
  fixes.sort((a, b) => byParts(a.fixedIn, b.fixedIn));
  return { fixes, affecting };
}
