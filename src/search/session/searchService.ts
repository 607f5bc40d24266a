// The search as the editor sends it (behind the session): checked against the bounds (an ApiError of kind
// 'validation' naming each field, nothing sent), sent through the client (keyed, or keyless for one request),
// its coverage notes explained, and the request kept in the history. Editor-free.
import type { CallOptions, DevIndexClient } from '../../api/client';
import type { CoverageNote } from '../../api/coverage';
import { validationError } from '../../api/errors';
import { validateSearchParams, type SearchParams } from '../../api/params';
import type { SearchResponse } from '../../api/schemas';
import { searchAndCompare } from './searchRun';

/** `error` is the ApiError's message (never holds the key); `status` the HTTP status when the service answered. */
export interface SearchOutcome {
  params: SearchParams;
  response?: SearchResponse;
  notes?: CoverageNote[];
  error?: string;
  status?: number;
}

/** Where searches that went through are kept (SearchHistory, over the editor's global state). */
export interface HistoryPort {
  add(params: SearchParams): Promise<void>;
}

export class SearchService {
  private last: SearchOutcome | undefined;

  constructor(
    private readonly client: (o?: { keyless?: boolean }) => Pick<DevIndexClient, 'search'>,
    private readonly history: HistoryPort,
  ) {}

  /** `keyless`: this one search is sent without the API key. */
  async search(
    params: SearchParams,
    opts: CallOptions & { keyless?: boolean },
  ): Promise<{ response: SearchResponse; notes: CoverageNote[] }> {
    try {
      const v = validateSearchParams(params);
      if (!v.ok) throw validationError(v.issues);
      const { keyless, ...call } = opts;
      const client = this.client({ keyless: keyless === true });
      const { response, notes } = await searchAndCompare((p, o) => client.search(p, o), params, call);
      this.last = { params, response, notes };
      await this.history.add(params);
      return { response, notes };
    } catch (e) {
      const status = (e as { status?: unknown } | undefined)?.status;
      this.last = {
        params,
        error: e instanceof Error ? e.message : String(e),
        ...(typeof status === 'number' ? { status } : {}),
      };
      throw e;
    }
  }

  /** The outcome of the most recent search. */
  lastOutcome(): SearchOutcome | undefined {
    return this.last;
  }
}
