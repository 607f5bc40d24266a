// Core side (loaded lazily): runs a search through the client, explains coverage, records history.
import type { CallOptions, DevIndexClient } from '../api/client';
import { explainCoverage, type CoverageNote } from '../api/coverage';
import type { SearchParams } from '../api/params';
import type { SearchResponse } from '../api/schemas';
import type { SearchHistory } from './history';

/** `error` is the ApiError's message (never holds the key); `status` the HTTP status when the service answered. */
export interface SearchOutcome { params: SearchParams; response?: SearchResponse; notes?: CoverageNote[]; error?: string; status?: number }

export class SearchService {
  private last: SearchOutcome | undefined;

  constructor(private readonly client: (o?: { keyless?: boolean }) => DevIndexClient, private readonly history: SearchHistory) {}

  /** `keyless`: this one search is sent without the API key. */
  async search(params: SearchParams, opts: CallOptions & { keyless?: boolean }): Promise<{ response: SearchResponse; notes: CoverageNote[] }> {
    try {
      const { keyless, ...call } = opts;
      const response = await this.client({ keyless: keyless === true }).search(params, call);
      const notes = explainCoverage(params, response);
      this.last = { params, response, notes };
      await this.history.add(params);
      return { response, notes };
    } catch (e) {
      const status = (e as { status?: unknown } | undefined)?.status;
      this.last = { params, error: e instanceof Error ? e.message : String(e), ...(typeof status === 'number' ? { status } : {}) };
      throw e;
    }
  }

  /** The outcome of the most recent search (the extension-host tests read it). */
  lastOutcome(): SearchOutcome | undefined {
    return this.last;
  }
}
