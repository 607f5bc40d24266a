// The search as the editor sends it (behind the session): sent through the client (keyed, or keyless for one
// request), which checks it first (an ApiError of kind 'validation' naming each field, nothing sent), and the
// request kept in the history. Editor-free.
import type { CallOptions, DevIndexClient } from '../../api/client';
import type { SearchParams } from '../../api/params';
import type { SearchResponse } from '../../api/schemas';

/** The last search: `error` is the ApiError's message (never holds the key); `status` the HTTP status when the
 * service answered. */
export interface LastSearch {
  params: SearchParams;
  response?: SearchResponse;
  error?: string;
  status?: number;
}

/** Where searches that went through are kept (SearchHistory, over the editor's global state). */
interface HistoryPort {
  add(params: SearchParams): Promise<void>;
}

export class SearchService {
  private last: LastSearch | undefined;

  constructor(
    private readonly client: (o?: { keyless?: boolean }) => Pick<DevIndexClient, 'search'>,
    private readonly history: HistoryPort,
  ) {}

  /** `keyless`: this one search is sent without the API key. */
  async search(params: SearchParams, opts: CallOptions & { keyless?: boolean }): Promise<SearchResponse> {
    try {
      const { keyless, ...call } = opts;
      const response = await this.client({ keyless: keyless === true }).search(params, call);
      this.last = { params, response };
      await this.history.add(params);
      return response;
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
  lastOutcome(): LastSearch | undefined {
    return this.last;
  }
}
