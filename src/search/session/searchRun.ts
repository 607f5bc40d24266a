// Version badges against the installed dependencies (compareVersions: the Search view's outcome, outcome.ts, and
// every surface that prints the wire response), and the one order `devindex search`, the tools and the chat
// participant run: the client's search, the coverage notes, the badges and a summary line per dependency. Editor-free.
import type { CallOptions } from '../../api/client';
import { explainCoverage, type CoverageNote } from '../../api/coverage';
import type { SearchParams } from '../../api/params';
import type { SearchResponse, SearchResult } from '../../api/schemas';
import { dependencyOfResult } from '../../deps/dependencyScope';
import {
  resultBadges,
  versionSummary,
  type InstalledDependency,
  type VersionBadge,
} from '../../versions/versionCompare';

export interface Versions {
  /** Per result: its badges against the dependency whose repository it is from; undefined when from none of them. */
  badges: Array<VersionBadge[] | undefined>;
  /** Per installed dependency (same order): its summary line, undefined when there is none (no version, nothing newer). */
  summaries: Array<string | undefined>;
}

/** Version badges, then the summary: each result against the first installed dependency whose repository it is from. */
export function compareVersions(results: readonly SearchResult[], installed: readonly InstalledDependency[]): Versions {
  if (!installed.length) return { badges: results.map(() => undefined), summaries: [] };
  const badges = results.map((r) => {
    const d = dependencyOfResult(installed, r);
    return d
      ? resultBadges(
          r.title,
          r.passages.map((p) => p.text),
          d,
        )
      : undefined;
  });
  const summaries = installed.map((d) =>
    versionSummary(
      results.map((r, i) => (dependencyOfResult([d], r) ? (badges[i] ?? []) : [])),
      d,
    ),
  );
  return { badges, summaries };
}

/** A search that went through: the request as sent, the response, its coverage notes and its versions. */
export interface SearchRun extends Versions {
  params: SearchParams;
  response: SearchResponse;
  notes: CoverageNote[];
  installed: InstalledDependency[];
}

/** The client's search, as each surface calls it (its own client, retries and signal). */
export type SearchCall = (params: SearchParams, opts: CallOptions) => Promise<SearchResponse>;

/** Search, coverage notes, version badges, summary. Rejects as the client does (ApiError). */
export async function searchAndCompare(
  search: SearchCall,
  params: SearchParams,
  opts: CallOptions,
  installed: readonly InstalledDependency[] = [],
): Promise<SearchRun> {
  const response = await search(params, opts);
  return {
    params,
    response,
    notes: explainCoverage(params, response),
    installed: [...installed],
    ...compareVersions(response.results, installed),
  };
}
