// Developer search over a loaded corpus: scoping rules 1-8 of spec 4.1, BM25 ranking with minisearch,
// a second (rerank) stage, passages, coverage and the echoes.
import { createHash } from 'node:crypto';
import MiniSearch, { type SearchResult } from 'minisearch';
import { bigrams, type Corpus, type CorpusDoc, type RepoInfo } from './corpus';
import { REPOSITORY_FILTERS, RESULT_TYPES, type ResultType, type SearchRequest } from './params';
import { processTerm, tokenize } from './text';
import type { Wire } from '../serverParts';
import type {
  CoverageValue,
  DeveloperSearchResult,
  ProductionSearchResponse,
  ProductionSearchResult,
  RepoEcho,
  SourceEcho,
  SpecSearchResponse,
  SpecSearchResult,
  WirePassage,
} from './wireTypes';

/** A spec-wire result (its passages as the sandbox builds them: text only). */
export type SearchResultItem = SpecSearchResult & { type: ResultType; passages: Array<{ text: string }> };
/** Production's license, in its two forms (the object, or a plain SPDX string during a migration): the SDK's. */
export type ProductionLicense = NonNullable<DeveloperSearchResult['license']>;
/** A production result: no `type` (the kind is the id prefix), `doc:<url>` ids, passages with `citation_url`. */
export type ProductionResultItem = ProductionSearchResult & { passages: Array<WirePassage & { citation_url: string }> };
export type ProductionSearchResponseBody = ProductionSearchResponse & {
  success: true;
  results: ProductionResultItem[];
};
export type SearchResponseBody = SpecSearchResponse & { success: true; results: SearchResultItem[] };

/**
 * Production answers some `doc:` ids as opaque hashes (addendum, from late August 2026). The sandbox
 * does so for the pages under these corpus paths (`<source>/<path>`: the Orbit command reference and
 * activation-events guide), so every other doc id stays `doc:<url>`.
 */
export const HASHED_DOC_PREFIXES = ['orbit-ext-api/references/', 'orbit-ext-api/extension-guides/activation-events'];
export const isHashedDoc = (d: CorpusDoc): boolean =>
  d.type === 'doc' && HASHED_DOC_PREFIXES.some((p) => d.id.slice('doc:'.length).startsWith(p));
/** The opaque id of a doc page: 16 hex digits of the SHA-256 of `<source>/<path>` (stable across runs). */
export const hashedDocId = (corpusId: string): string =>
  `doc:${createHash('sha256').update(corpusId.slice('doc:'.length)).digest('hex').slice(0, 16)}`;

/** Options of a production search: whether results carry `license` (default true) and the passage budget. */
export interface ProductionSearchOptions {
  license?: boolean;
  passageBudget?: number;
}

/** How many first-stage candidates the rerank stage reorders (at least k). */
const rerankWindow = (k: number): number => Math.max(2 * k, 50);
/** Fewer candidates than this: nothing to reorder, the rerank stage is skipped (`reranked: false`). */
export const RERANK_MIN_CANDIDATES = 2;

const REPO_TYPE_KEY = { issue: 'issue', pull_request: 'pullRequest', readme: 'readme' } as const;
const splitter = /[^\p{L}\p{N}_]+/u;

export class SearchEngine {
  private readonly index: MiniSearch<{ id: number; title: string; body: string }>;
  private readonly docs: CorpusDoc[];

  constructor(private readonly corpus: Corpus) {
    this.docs = corpus.docs;
    this.index = new MiniSearch({
      fields: ['title', 'body'],
      tokenize: (text) => text.split(splitter),
      processTerm,
      searchOptions: {
        boost: { title: 2 },
        prefix: (term) => term.length >= 4,
        fuzzy: false,
        combineWith: 'OR',
      },
    });
    this.index.addAll(this.docs.map((d, id) => ({ id, title: d.title ?? '', body: d.body })));
  }

  get documentCount(): number {
    return this.docs.length;
  }

  /** Adds (or replaces, by id) one document while the sandbox runs (test mode: `POST /__sandbox/corpus`). */
  addDoc(doc: CorpusDoc): void {
    const at = this.docs.findIndex((d) => d.id === doc.id);
    if (at >= 0) {
      this.index.discard(at);
      this.docs[at] = doc;
      this.index.add({ id: at, title: doc.title ?? '', body: doc.body });
      return;
    }
    this.docs.push(doc);
    this.index.add({ id: this.docs.length - 1, title: doc.title ?? '', body: doc.body });
  }

  /**
   * The specification's answer (`type`, coverage, reranked), or production's (see ProductionResultItem;
   * no coverage or reranked; `web:` pages too when `types` was not sent).
   */
  search(r: SearchRequest, wire: 'production', o?: ProductionSearchOptions): ProductionSearchResponseBody;
  search(r: SearchRequest, wire?: 'spec'): SearchResponseBody;
  search(
    r: SearchRequest,
    wire: Wire = 'spec',
    o: ProductionSearchOptions = {},
  ): SearchResponseBody | ProductionSearchResponseBody {
    const types = new Set<ResultType>(r.types ?? RESULT_TYPES);
    const web = wire === 'production' && r.types === undefined && r.skills !== 'only';
    const k = r.k ?? 10;
    const passages = r.passages ?? 1;
    const repoFilterSent = REPOSITORY_FILTERS.some((f) => r[f] !== undefined);
    const sourcesSent = r.sources !== undefined;
    const skillsOnly = r.skills === 'only';
    // Rule 6: a repository filter without `sources` keeps the documentation half from running.
    const docHalf = types.has('doc') && !(repoFilterSent && !sourcesSent);
    const repoHalf = !skillsOnly;

    const sourceEcho: SourceEcho[] | undefined =
      r.sources === undefined
        ? undefined
        : dedupe(r.sources, (s) => s).map((s) => ({ source: s, indexed: this.sourceIndexed(s) }));
    const repoEcho: RepoEcho[] | undefined =
      r.repos === undefined
        ? undefined
        : dedupe(r.repos, (s) => s.toLowerCase()).map((slug) =>
            echoRepo(slug, this.corpus.repos.get(slug.toLowerCase())),
          );
    const sourceSet = r.sources && new Set(r.sources);
    const repoSet = r.repos && new Set(r.repos.map((s) => s.toLowerCase()));

    const allowed = (d: CorpusDoc): boolean => {
      if (d.type === 'web') return web && !repoFilterSent && !sourceSet && !repoSet;
      if (!types.has(d.type)) return false;
      if (d.type === 'doc') {
        if (!docHalf) return false;
        if (sourceSet && !sourceSet.has(d.source ?? '')) return false;
        return !skillsOnly || d.skill;
      }
      if (!repoHalf || !d.repo) return false;
      if (repoSet && !repoSet.has(d.repo.repo.toLowerCase())) return false;
      return repoMatches(d.repo, r);
    };

    const coverage = {} as Record<ResultType, CoverageValue>;
    for (const t of RESULT_TYPES) {
      if (!types.has(t)) coverage[t] = 'skipped';
      else if (t === 'doc') {
        coverage[t] = !docHalf ? 'unavailable' : sourceEcho?.some((s) => !s.indexed) ? 'degraded' : 'ok';
      } else if (skillsOnly) coverage[t] = 'unavailable';
      else coverage[t] = repoEcho?.some((e) => !e.types[REPO_TYPE_KEY[t]]) ? 'degraded' : 'ok';
    }

    const hits = this.index.search(r.query, { filter: (h) => allowed(this.docs[h.id as number] as CorpusDoc) });
    const window = hits.slice(0, rerankWindow(k));
    const reranked = window.length >= RERANK_MIN_CANDIDATES;
    const ranked = reranked ? this.rerank(r.query, window) : window;

    if (wire === 'production') {
      const withLicense = o.license !== false;
      const top = ranked.slice(0, k);
      // The passage budget (when set): every result keeps at least one passage; later results give up theirs first.
      const budget =
        o.passageBudget !== undefined && o.passageBudget > 0 && top.length * passages > o.passageBudget
          ? Math.max(o.passageBudget, top.length)
          : undefined;
      let left = budget ?? Infinity;
      const body: ProductionSearchResponseBody = {
        success: true,
        results: top.map((h, i) => {
          const d = this.docs[h.id as number] as CorpusDoc;
          const lic = d.repo && withLicense ? productionLicense(d.repo, this.corpus.repos) : undefined;
          const n = Math.max(1, Math.min(passages, left - (top.length - i - 1)));
          left -= n;
          return {
            id: d.type === 'doc' ? (isHashedDoc(d) ? hashedDocId(d.id) : `doc:${d.url}`) : d.id,
            url: d.url,
            ...(d.title !== undefined ? { title: d.title } : {}),
            passages: bestChunks(d, h.terms, n).map(
              (c) => ({ text: d.chunks[c] as string, citation_url: d.citations[c] as string }) satisfies WirePassage,
            ),
            ...(lic !== undefined ? { license: lic } : {}),
          } satisfies ProductionResultItem;
        }),
      };
      if (budget !== undefined) body.passage_budget_applied = budget;
      if (repoEcho) body.repos = repoEcho;
      if (sourceEcho) body.sources = sourceEcho;
      return body;
    }

    const results = ranked.slice(0, k).map((h) => {
      const d = this.docs[h.id as number] as CorpusDoc;
      return {
        id: d.id,
        type: d.type as ResultType,
        url: d.url,
        ...(d.title !== undefined ? { title: d.title } : {}),
        passages: bestPassages(d, h.terms, passages),
      } satisfies SearchResultItem;
    });

    const body: SearchResponseBody = { success: true, results, coverage, reranked };
    if (repoEcho) body.repos = repoEcho;
    if (sourceEcho) body.sources = sourceEcho;
    return body;
  }

  private sourceIndexed(id: string): boolean {
    const s = this.corpus.sources.get(id);
    return s !== undefined && s.indexed !== false;
  }

  /**
   * Second stage: the BM25 score (normalised to the best candidate) blended with the share of distinct
   * query terms the whole document holds, the share its title holds, and the share of the query's
   * adjacent term pairs it holds in the same order (phrase proximity). BM25 alone favours a short
   * document that repeats one term.
   */
  private rerank(query: string, hits: SearchResult[]): SearchResult[] {
    const tokens = tokenize(query);
    const q = [...new Set(tokens)];
    const pairs = [...bigrams(tokens)];
    const top = hits[0]?.score || 1;
    const share = (items: string[], set: Set<string>): number => {
      if (items.length === 0) return 0;
      let n = 0;
      for (const t of items) if (set.has(t)) n++;
      return n / items.length;
    };
    const scored = hits.map((h) => {
      const d = this.docs[h.id as number] as CorpusDoc;
      const s =
        0.5 * (h.score / top) +
        0.25 * share(q, d.terms) +
        0.15 * share(q, d.titleTerms) +
        0.1 * share(pairs, d.bigrams);
      return { h, id: d.id, s };
    });
    scored.sort((a, b) => b.s - a.s || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    return scored.map((x) => x.h);
  }
}

/** The `n` chunks holding the most matched terms, best first; ties keep document order. */
export function bestPassages(d: CorpusDoc, matched: string[], n: number): Array<{ text: string }> {
  return bestChunks(d, matched, n).map((i) => ({ text: d.chunks[i] as string }));
}

/** Indexes of the `n` best chunks (see bestPassages). */
export function bestChunks(d: CorpusDoc, matched: string[], n: number): number[] {
  const scored = d.chunks.map((_, i) => {
    const set = d.chunkTerms[i] as Set<string>;
    let s = 0;
    for (const t of matched) if (set.has(t)) s++;
    return { i, s };
  });
  scored.sort((a, b) => b.s - a.s || a.i - b.i);
  return scored.slice(0, n).map((c) => c.i);
}

/**
 * Production's license of a repository result. Both forms appear, as during the service's migration:
 * repositories at an odd position in repos.json get the plain SPDX string, the others the object; a
 * repository without a license is `known_absent`, and a fork's is `unknown` (not yet determined).
 */
export function productionLicense(info: RepoInfo, all: Map<string, RepoInfo>): ProductionLicense {
  if (info.fork) return { state: 'unknown', spdx_id: null };
  if (!info.license) return { state: 'known_absent', spdx_id: null };
  const position = [...all.keys()].indexOf(info.repo.toLowerCase());
  return position % 2 === 1 ? info.license : { state: 'licensed', spdx_id: info.license };
}

function echoRepo(slug: string, info: RepoInfo | undefined): RepoEcho {
  if (!info || !info.indexed)
    return { repo: slug, indexed: false, types: { issue: false, pullRequest: false, readme: false } };
  return { repo: slug, indexed: true, types: { ...info.types } };
}

const eq = (a: string | undefined, b: string): boolean => a !== undefined && a.toLowerCase() === b.toLowerCase();

/** Rule 5: the seven repository filters, matched against the repository's metadata. */
export function repoMatches(info: RepoInfo, r: SearchRequest): boolean {
  if (r.language !== undefined && !eq(info.language, r.language)) return false;
  // A list of topics (production) admits a repository with any of them.
  if (
    r.topic !== undefined &&
    !(Array.isArray(r.topic) ? r.topic : [r.topic]).some((want) => (info.topics ?? []).some((t) => eq(t, want)))
  )
    return false;
  if (r.license !== undefined && !eq(info.license, r.license)) return false;
  const stars = info.stars ?? 0;
  if (r.min_stars !== undefined && stars < r.min_stars) return false;
  if (r.max_stars !== undefined && stars > r.max_stars) return false;
  if (r.archived !== undefined && (info.archived ?? false) !== r.archived) return false;
  if (r.fork !== undefined && (info.fork ?? false) !== r.fork) return false;
  return true;
}

function dedupe<T>(items: T[], key: (t: T) => string): T[] {
  const seen = new Set<string>();
  return items.filter((i) => {
    const k = key(i);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}
