// Wire schemas for spec section 2, tolerant where the service may grow: unknown fields pass (looseObject), result
// types and coverage values are plain strings, so a new one is kept as it came. zod/mini: dist/core.js holds these,
// and zod/mini keeps only the checks they use (about 37 KB against classic zod's 92).
import * as z from 'zod/mini';
import { fastLooseObject } from './zodMini';
import { resultKind } from './results';

// A missing or null title is the documented "no usable title" case; both become undefined.
const optionalTitle = z.pipe(
  z.nullish(z.string()),
  z.transform((v) => v ?? undefined),
);

// `citation_url` (production): a deep link to the passage; dropped when it is not a string.
const PassageSchema = fastLooseObject({
  text: z.string(),
  citation_url: z.catch(z.optional(z.string()), undefined),
});

/**
 * The specification's results carry `type`; production's do not (the kind is the id's prefix).
 * After parsing, `type` is always set, by `resultKind` (results.ts), so every surface reads one field.
 * `license` (production) is kept as it came; `licenseOf` reads both of its forms.
 */
const SearchResultSchema = z.pipe(
  fastLooseObject({
    id: z.string(),
    type: z.catch(z.optional(z.string()), undefined),
    url: z.string(),
    title: optionalTitle,
    // Results "carry matched passages"; a result without the array is still worth showing.
    passages: z.pipe(
      z.optional(z.array(PassageSchema)),
      z.transform((v) => v ?? []),
    ),
    license: z.optional(z.unknown()),
    // zod's output is a fresh object (looseObject copies every key), so `type` is set on it rather than on a
    // second copy: 100 fewer objects per search at k=100 (the client's tail is its allocations).
  }),
  z.transform((r) => {
    r.type = resultKind(r);
    return r as typeof r & { type: string };
  }),
);

// A coverage value that is not a string is dropped (that type's note is left out), never the whole answer.
const coverageValue = z.catch(z.optional(z.string()), undefined);
const CoverageSchema = z.catchall(
  z.looseObject({
    doc: coverageValue,
    issue: coverageValue,
    pull_request: coverageValue,
    readme: coverageValue,
  }),
  z.unknown(),
);

export const RepositoryEchoSchema = z.looseObject({
  repo: z.string(),
  indexed: z.boolean(),
  types: z.optional(
    z.looseObject({
      issue: z.optional(z.boolean()),
      pullRequest: z.optional(z.boolean()),
      readme: z.optional(z.boolean()),
    }),
  ),
});

const SourceEchoSchema = z.looseObject({
  source: z.string(),
  indexed: z.boolean(),
});

/**
 * A search answer. `coverage` and `reranked` are the specification's (2.1; the SDK declares neither and
 * production may leave them out): one of an unexpected type is dropped, the results are still shown.
 */
export const SearchResponseSchema = fastLooseObject({
  success: z.literal(true),
  results: z.array(SearchResultSchema),
  coverage: z.catch(z.optional(CoverageSchema), undefined),
  reranked: z.catch(z.optional(z.boolean()), undefined),
  repos: z.optional(z.array(RepositoryEchoSchema)),
  sources: z.optional(z.array(SourceEchoSchema)),
});

/**
 * A 200 body that says `success: false` (the SDK declares `success` a boolean, not `true`): not an invalid
 * response but the service's refusal, whose `error` text is shown to the user.
 */
export const SearchFailureSchema = z.looseObject({
  success: z.literal(false),
  error: z.catch(z.optional(z.string()), undefined),
  code: z.catch(z.optional(z.string()), undefined),
});

/**
 * What a search's 200 body may be: an answer, or `success: false` with its text. Anything else fails with
 * the answer schema's own issues (every missing field named), not a union's "invalid input".
 */
export const SearchAnswerSchema = z.pipe(
  z.unknown(),
  z.transform((body, ctx): SearchResponse | SearchFailure => {
    if (body !== null && typeof body === 'object' && (body as { success?: unknown }).success === false) {
      return SearchFailureSchema.parse(body);
    }
    const r = SearchResponseSchema.safeParse(body);
    if (r.success) return r.data;
    for (const issue of r.error.issues)
      ctx.issues.push({ code: 'custom', message: issue.message, path: issue.path, input: body });
    return z.NEVER;
  }),
);

/** Every non-2xx body as documented (2.6), plus the `detail` / `title` shapes upstream proxies send. */
export const ErrorBodySchema = z.looseObject({
  success: z.optional(z.boolean()),
  error: z.optional(z.string()),
  details: z.optional(z.unknown()),
  code: z.optional(z.string()),
  detail: z.optional(z.unknown()),
  title: z.optional(z.unknown()),
  message: z.optional(z.unknown()),
});

export type Passage = z.infer<typeof PassageSchema>;
export type SearchResult = z.infer<typeof SearchResultSchema>;
export type Coverage = z.infer<typeof CoverageSchema>;
export type RepositoryEcho = z.infer<typeof RepositoryEchoSchema>;
export type SourceEcho = z.infer<typeof SourceEchoSchema>;
export type SearchResponse = z.infer<typeof SearchResponseSchema>;
export type SearchFailure = z.infer<typeof SearchFailureSchema>;

/** What to show for a result: its title, or its url when the source page had none. */
export function displayTitle(r: Pick<SearchResult, 'title' | 'url'>): string {
  return r.title && r.title.trim() ? r.title : r.url;
}

/**
 * Names the field(s) a response lacks or got wrong, e.g. `results[2].url: expected string, got undefined`.
 * Takes the error of either zod form (the agent schemas in dist/features.js are classic zod).
 */
export function describeZodError(err: { readonly issues: readonly z.core.$ZodIssue[] }, max = 3): string {
  const parts = err.issues.slice(0, max).map((i) => {
    const path = i.path.reduce<string>(
      (acc, seg) => (typeof seg === 'number' ? `${acc}[${seg}]` : acc ? `${acc}.${String(seg)}` : String(seg)),
      '',
    );
    return `${path || '(body)'}: ${i.message}`;
  });
  const more = err.issues.length > max ? ` (and ${err.issues.length - max} more)` : '';
  return parts.join('; ') + more;
}
