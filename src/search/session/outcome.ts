// The session's outcome of a search that went through, built once from the wire response: kind, provenance,
// license and passage links precomputed, the coverage notes, each result's version badges and the summary (the
// webview protocol carries it as it is), and the Markdown document Open as Markdown shows. Editor-free.
import { explainCoverage, type CoverageNote } from '../../api/coverage';
import type { SearchParams } from '../../api/params';
import { licenseLabel, passageLink, provenance } from '../../api/results';
import type { SearchResponse } from '../../api/schemas';
import type { InstalledDependency, VersionBadge } from '../../versions/versionCompare';
import { externalUrl } from '../../webview/linkPolicy';
import { compareVersions } from './searchRun';

interface OutcomePassage {
  text: string;
  /** The passage's own link (production's `citation_url`) when it differs from the result's url. */
  link?: string;
}

export interface OutcomeResult {
  id: string;
  /** The kind (resultKind: `type`, else the id's prefix), kept as it came: an unknown one is shown raw. */
  type: string;
  url: string;
  title?: string;
  /** `owner/repo #123`, `owner/repo`, or the site and path (results.ts `provenance`). */
  provenance: string;
  /** A short license label (results.ts `licenseLabel`), when the service said one. */
  license?: string;
  passages: OutcomePassage[];
  /** How the result's version statements compare with the installed version (most telling first). */
  versions?: VersionBadge[];
}

/** A search that went through, as every view of it shows it (spec 2.1-2.5 and production). */
export interface SearchOutcome {
  params: SearchParams;
  results: OutcomeResult[];
  /** Result type -> coverage value (ok, degraded, unavailable, skipped, or a newer value kept raw). */
  coverage: Record<string, string>;
  reranked?: boolean;
  repos?: Array<{
    repo: string;
    indexed: boolean;
    types?: { issue?: boolean; pullRequest?: boolean; readme?: boolean };
  }>;
  sources?: Array<{ source: string; indexed: boolean }>;
  notes: CoverageNote[];
  ms: number;
  /** The dependencies the search is scoped to, and one summary line per dependency with badges. */
  installed?: InstalledDependency[];
  versionSummary?: string[];
}

/**
 * The wire response as the view shows it, with its coverage notes, and, for the results from an installed
 * dependency's repository, their version badges and the summary lines (computed here, once).
 */
export function toOutcome(
  params: SearchParams,
  response: SearchResponse,
  installed: readonly InstalledDependency[],
  ms: number,
): SearchOutcome {
  const coverage: Record<string, string> = {};
  for (const [k, v] of Object.entries(response.coverage ?? {})) if (typeof v === 'string') coverage[k] = v;
  const { badges, summaries } = compareVersions(response.results, installed);
  const lines = summaries.filter((x): x is string => !!x);
  return {
    params,
    results: response.results.map((r, i) => {
      const license = licenseLabel(r);
      const versions = badges[i];
      return {
        id: r.id,
        type: r.type,
        url: r.url,
        ...(r.title && r.title.trim() ? { title: r.title } : {}),
        provenance: provenance(r).text,
        ...(license ? { license } : {}),
        passages: r.passages.map((p) => {
          const link = passageLink(p, r);
          return link !== r.url ? { text: p.text, link } : { text: p.text };
        }),
        ...(versions?.length ? { versions } : {}),
      };
    }),
    coverage,
    ...(response.reranked !== undefined ? { reranked: response.reranked } : {}),
    ...(response.repos
      ? {
          repos: response.repos.map((e) => ({
            repo: e.repo,
            indexed: e.indexed,
            ...(e.types
              ? { types: { issue: e.types.issue, pullRequest: e.types.pullRequest, readme: e.types.readme } }
              : {}),
          })),
        }
      : {}),
    ...(response.sources ? { sources: response.sources.map((e) => ({ source: e.source, indexed: e.indexed })) } : {}),
    notes: explainCoverage(params, response),
    ms,
    ...(installed.length ? { installed: [...installed] } : {}),
    ...(lines.length ? { versionSummary: lines } : {}),
  };
}

/** The Markdown document Open as Markdown shows; the version badges stay, as text with their sentences. */
export function passagesDocument(
  title: string,
  url: string,
  passages: string[],
  versions: ReadonlyArray<{ label: string; sentence: string }> = [],
): string {
  const heading = title.replace(/\s+/g, ' ').trim() || 'Passages';
  const link = externalUrl(url);
  const parts = [`# ${heading}`, ...(link ? [`<${link}>`] : [])];
  if (versions.length)
    parts.push(versions.map((v) => `- **${v.label}** — “${v.sentence.replace(/\s+/g, ' ')}”`).join('\n'));
  passages.forEach((p, i) => parts.push(`## Passage ${i + 1}\n\n${p.trim()}`));
  return parts.join('\n\n') + '\n';
}
