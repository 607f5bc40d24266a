// explainCoverage: turns a response's coverage and echoes into notes a user can act on.
// Shared by the CLI and the webview so both say the same thing.
import { hasRepositoryFilter, REPOSITORY_FILTERS, REPOSITORY_TYPES, requestedTypes, type SearchParams } from './params';
import { boundedJson } from './jsonDepth';
import type { SearchResponse } from './schemas';

export interface CoverageNote {
  level: 'info' | 'warning';
  type?: string;
  text: string;
  fix?: { kind: 'drop-repo-filters' | 'add-sources'; label: string };
}

const TYPE_WORDS: Record<string, string> = {
  doc: 'documentation',
  issue: 'issue',
  pull_request: 'pull request',
  readme: 'README',
};
const ECHO_KEY: Record<string, 'issue' | 'pullRequest' | 'readme'> = {
  issue: 'issue',
  pull_request: 'pullRequest',
  readme: 'readme',
};

function words(type: string): string {
  return TYPE_WORDS[type] ?? type;
}

function usedRepoFilters(p: SearchParams): string[] {
  return REPOSITORY_FILTERS.filter((f) => p[f] !== undefined);
}

export function explainCoverage(request: SearchParams, response: SearchResponse): CoverageNote[] {
  const notes: CoverageNote[] = [];
  const asked = new Set(requestedTypes(request));
  const sourcesSent = !!request.sources && request.sources.length > 0;
  const rule6 = hasRepositoryFilter(request) && !sourcesSent && asked.has('doc');

  // Rule 6: repository filters without sources switch the documentation half off, by design.
  if (rule6) {
    const filters = usedRepoFilters(request).join(', ');
    notes.push({
      level: 'warning',
      type: 'doc',
      text:
        `No documentation results: repository filters (${filters}) apply only to repositories, ` +
        `so without sources the documentation half does not run. To keep doc results, ` +
        `drop the repository filters, or scope the documentation with sources.`,
      fix: { kind: 'drop-repo-filters', label: 'Search again without repository filters' },
    });
    notes.push({
      level: 'info',
      type: 'doc',
      text: 'Or keep the filters and name the documentation sources to search; the sources echo then says which ids are indexed.',
      fix: { kind: 'add-sources', label: 'Add documentation sources' },
    });
  }

  const coverage = (response.coverage ?? {}) as Record<string, unknown>;
  for (const [type, raw] of Object.entries(coverage)) {
    if (raw === undefined) continue;
    // An unknown value is shown as it came, bounded: a deeply nested one cannot overflow the stack here.
    const value = typeof raw === 'string' ? raw : boundedJson(raw, undefined, 4).slice(0, 200);
    if (value === 'ok') continue;
    if (type === 'doc' && rule6 && value !== 'skipped') continue; // already explained above
    const w = words(type);
    switch (value) {
      case 'skipped':
        notes.push({
          level: 'info',
          type,
          text: `${cap(w)} results were skipped: the request's types did not ask for ${type}.`,
        });
        break;
      case 'degraded':
      case 'unavailable': {
        const why = gapReason(type, request, response);
        notes.push({
          level: 'warning',
          type,
          text: `${cap(w)} results are ${value}: a gap caused by the index or by a filter, not by the query.${why ? ` ${why}` : ''}`,
        });
        break;
      }
      default:
        notes.push({
          level: 'info',
          type,
          text: `Coverage of ${type}: "${value}" (a value this client does not know; shown as the service sent it).`,
        });
    }
  }

  for (const echo of response.repos ?? []) {
    if (!echo.indexed) {
      notes.push({
        level: 'warning',
        text: `Repository ${echo.repo} is not indexed: no issue, pull request or README results can come from it.`,
      });
      continue;
    }
    const missing = REPOSITORY_TYPES.filter((t) => asked.has(t) && echo.types && echo.types[ECHO_KEY[t]!] === false);
    if (missing.length) {
      notes.push({
        level: 'info',
        text: `Repository ${echo.repo} has no indexed ${missing.map((t) => `${words(t)}s`).join(' or ')}, so none can appear from it.`,
      });
    }
  }
  for (const echo of response.sources ?? []) {
    if (!echo.indexed) {
      notes.push({
        level: 'warning',
        type: 'doc',
        text: `Documentation source "${echo.source}" is not indexed: nothing from that id can match (check the id).`,
      });
    }
  }
  return notes;
}

/** Why a type may have a gap, from what the request and the echoes tell. */
function gapReason(type: string, request: SearchParams, response: SearchResponse): string | undefined {
  if (type === 'doc') {
    const bad = (response.sources ?? []).filter((s) => !s.indexed).map((s) => s.source);
    if (bad.length) return `Sources not indexed: ${bad.join(', ')}.`;
    return undefined;
  }
  const key = ECHO_KEY[type];
  if (!key) return undefined;
  const notIndexed = (response.repos ?? []).filter((r) => !r.indexed).map((r) => r.repo);
  const lacking = (response.repos ?? []).filter((r) => r.indexed && r.types?.[key] === false).map((r) => r.repo);
  const parts: string[] = [];
  if (notIndexed.length) parts.push(`repositories not indexed: ${notIndexed.join(', ')}`);
  if (lacking.length) parts.push(`${words(type)}s not indexed for: ${lacking.join(', ')}`);
  const filters = usedRepoFilters(request);
  if (!parts.length && filters.length) parts.push(`repository filters in use: ${filters.join(', ')}`);
  return parts.length ? `${cap(parts.join('; '))}.` : undefined;
}

function cap(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
