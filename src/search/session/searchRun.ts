// The one order a search goes through, for every surface (the Search view's session, `devindex search`, the
// tools and the chat participant): the client's search, the coverage notes, then each result's version badges
// against the installed dependency whose repository it is from, and a summary line per dependency. Editor-free.
import type { CallOptions } from '../../api/client';
import { explainCoverage, type CoverageNote } from '../../api/coverage';
import type { SearchParams } from '../../api/params';
import type { SearchResponse } from '../../api/schemas';
import { dependencyOfResult } from '../../deps/dependencyScope';
import {
  resultBadges,
  versionSummary,
  type InstalledDependency,
  type VersionBadge,
} from '../../versions/versionCompare';

/** What the badges are read from: a wire result or the view's projection of one. */
export interface VersionedResult {
  id: string;
  url: string;
  title?: string | undefined;
  passages: ReadonlyArray<{ text: string }>;
}

export interface Versions {
  /** Per result: its badges against the dependency whose repository it is from; undefined when from none of them. */
  badges: Array<VersionBadge[] | undefined>;
  /** Per installed dependency (same order): its summary line, undefined when there is none (no version, nothing newer). */
  summaries: Array<string | undefined>;
}

/** Version badges, then the summary: each result against the first installed dependency whose repository it is from. */
export function compareVersions(
  results: readonly VersionedResult[],
  installed: readonly InstalledDependency[],
): Versions {
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
