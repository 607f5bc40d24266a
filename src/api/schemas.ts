// Wire schemas for spec section 2. Tolerant where the service may grow: unknown fields pass through
// (looseObject), result types and coverage values are plain strings so a new one is kept as it came.
import * as z from 'zod';
import { resultKind } from './results';

export const KNOWN_COVERAGE_VALUES = ['ok', 'degraded', 'unavailable', 'skipped'] as const;

// A missing or null title is the documented "no usable title" case; both become undefined.
const optionalTitle = z.string().nullish().transform((v) => v ?? undefined);

// `citation_url` (production): a deep link to the passage; dropped when it is not a string.
export const PassageSchema = z.looseObject({ text: z.string(), citation_url: z.string().optional().catch(undefined) });

/**
 * The specification's results carry `type`; production's do not (the kind is the id's prefix).
 * After parsing, `type` is always set, by `resultKind` (results.ts), so every surface reads one field.
 * `license` (production) is kept as it came; `licenseOf` reads both of its forms.
 */
export const SearchResultSchema = z.looseObject({
  id: z.string(),
  type: z.string().optional().catch(undefined),
  url: z.string(),
  title: optionalTitle,
  // Results "carry matched passages"; a result without the array is still worth showing.
  passages: z.array(PassageSchema).optional().transform((v) => v ?? []),
  license: z.unknown().optional(),
  // zod's output is a fresh object (looseObject copies every key), so `type` is set on it rather than on a
  // second copy: 100 fewer objects per search at k=100 (issue 20, the client's tail is its allocations).
}).transform((r) => {
  r.type = resultKind(r);
  return r as typeof r & { type: string };
});

export const CoverageSchema = z.looseObject({
  doc: z.string().optional(),
  issue: z.string().optional(),
  pull_request: z.string().optional(),
  readme: z.string().optional(),
}).catchall(z.unknown());

export const RepositoryEchoSchema = z.looseObject({
  repo: z.string(),
  indexed: z.boolean(),
  types: z.looseObject({
    issue: z.boolean().optional(),
    pullRequest: z.boolean().optional(),
    readme: z.boolean().optional(),
  }).optional(),
});

export const SourceEchoSchema = z.looseObject({
  source: z.string(),
  indexed: z.boolean(),
});

export const SearchResponseSchema = z.looseObject({
  success: z.literal(true),
  results: z.array(SearchResultSchema),
  coverage: CoverageSchema.optional(),
  reranked: z.boolean().optional(),
  repos: z.array(RepositoryEchoSchema).optional(),
  sources: z.array(SourceEchoSchema).optional(),
});

/** Every non-2xx body as documented (2.6), plus the `detail` / `title` shapes upstream proxies send. */
export const ErrorBodySchema = z.looseObject({
  success: z.boolean().optional(),
  error: z.string().optional(),
  details: z.unknown().optional(),
  code: z.string().optional(),
  detail: z.unknown().optional(),
  title: z.unknown().optional(),
  message: z.unknown().optional(),
});

export type Passage = z.infer<typeof PassageSchema>;
export type SearchResult = z.infer<typeof SearchResultSchema>;
export type Coverage = z.infer<typeof CoverageSchema>;
export type RepositoryEcho = z.infer<typeof RepositoryEchoSchema>;
export type SourceEcho = z.infer<typeof SourceEchoSchema>;
export type SearchResponse = z.infer<typeof SearchResponseSchema>;
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

/** What to show for a result: its title, or its url when the source page had none. */
export function displayTitle(r: Pick<SearchResult, 'title' | 'url'>): string {
  return r.title && r.title.trim() ? r.title : r.url;
}

/** Names the field(s) a response lacks or got wrong, e.g. `results[2].url: expected string, got undefined`. */
export function describeZodError(err: z.ZodError, max = 3): string {
  const parts = err.issues.slice(0, max).map((i) => {
    const path = i.path.reduce<string>((acc, seg) => (typeof seg === 'number' ? `${acc}[${seg}]` : acc ? `${acc}.${String(seg)}` : String(seg)), '');
    return `${path || '(body)'}: ${i.message}`;
  });
  const more = err.issues.length > max ? ` (and ${err.issues.length - max} more)` : '';
  return parts.join('; ') + more;
}
