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

  constructor(private readonly client: () => DevIndexClient, private readonly history: SearchHistory) {}

  async search(params: SearchParams, opts: CallOptions): Promise<{ response: SearchResponse; notes: CoverageNote[] }> {
    try {
      const response = await this.client().search(params, opts);
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
