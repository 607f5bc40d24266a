// Developer-search wire shapes, declared from the service's own SDK (`firecrawl` 4.42.0, a dev dependency) so that
// a guessed field fails `tsc`: the sandbox's builders and the tests' fixtures use them with `satisfies`; what goes
// beyond the SDK is named with where it comes from. Types only: nothing of the SDK is bundled.
import type {
  DeveloperSearchPassage,
  DeveloperSearchRepoStatus,
  DeveloperSearchResponse,
  DeveloperSearchResult,
  DeveloperSearchSourceStatus,
  DeveloperSearchType,
} from 'firecrawl';

export type {
  DeveloperSearchLicenseDisclosure,
  DeveloperSearchPassage,
  DeveloperSearchResponse,
  DeveloperSearchResult,
} from 'firecrawl';

/** A coverage value (spec 2.3). */
export type CoverageValue = 'ok' | 'degraded' | 'unavailable' | 'skipped';

/**
 * What production sends beyond the SDK's `DeveloperSearchResponse` (the SDK is older than these):
 * - `passage_budget_applied`: addendum, "What changed in production from late August 2026", Search
 *   ("A response may carry `passage_budget_applied` (a number)").
 * - `coverage`, `reranked`: the specification's (2.1); the addendum ("What the production service sends
 *   today") says production may leave them out, and the SDK declares neither.
 */
export interface ProductionResponseExtras {
  passage_budget_applied?: number;
  coverage?: Partial<Record<DeveloperSearchType, CoverageValue>>;
  reranked?: boolean;
}

/** A production result: the SDK's own (no `type`: the kind is the id's prefix, addendum "Developer search responses"). */
export type ProductionSearchResult = DeveloperSearchResult;
/** A production answer: the SDK's response and the extras above. */
export type ProductionSearchResponse = DeveloperSearchResponse & ProductionResponseExtras;

/**
 * A result on the specification's wire (spec 2.2): the SDK's result with the `type` the specification
 * documents and production no longer sends (the SDK declares no `type`).
 */
export type SpecSearchResult = DeveloperSearchResult & { type: DeveloperSearchType };

/**
 * An answer on the specification's wire (spec 2.1): `coverage` and `reranked` always present (spec 2.1 says
 * "present in responses"; the SDK declares neither), results with `type`.
 */
export type SpecSearchResponse = Omit<DeveloperSearchResponse, 'results'> & {
  results: SpecSearchResult[];
  coverage: Record<DeveloperSearchType, CoverageValue>;
  reranked: boolean;
};

/** The echoes, exactly as the SDK declares them (spec 2.4 and 2.5 agree, `pullRequest` camel-cased). */
export type RepoEcho = DeveloperSearchRepoStatus;
export type SourceEcho = DeveloperSearchSourceStatus;
export type WirePassage = DeveloperSearchPassage;
