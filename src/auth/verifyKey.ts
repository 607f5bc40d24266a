// Set API Key's check: one cheap authenticated request (the first page of the agent job list, which
// costs no credits) before the key is said to work. Core side (dist/core.js): it needs the client.
import * as z from 'zod/mini';
import { DevIndexClient } from '../api/client';
import { ApiError } from '../api/errors';
import type { Transport } from '../api/transport';
import { ORIGINS } from '../api/version';

/**
 * - accepted: the service authenticated the key (any answer but 401);
 * - refused: HTTP 401, the key is wrong;
 * - unchecked: nothing conclusive came back (network, timeout, 5xx, 429, plain http refused), with why.
 */
export type KeyCheck =
  { outcome: 'accepted' } | { outcome: 'refused'; message: string } | { outcome: 'unchecked'; reason: string };

interface KeyCheckOptions {
  baseUrl: string;
  /** The host's transport for this check (closed with the check's client). */
  transport: Transport;
  allowInsecureHttp?: boolean;
  timeoutMs?: number;
}

export async function verifyKey(key: string, o: KeyCheckOptions): Promise<KeyCheck> {
  const client = new DevIndexClient({
    baseUrl: o.baseUrl,
    apiKey: () => key,
    origin: ORIGINS.vscode,
    transport: o.transport,
    allowInsecureHttp: o.allowInsecureHttp,
    timeoutMs: o.timeoutMs ?? 10_000,
  });
  try {
    await client.request({ method: 'GET', path: '/v2/agent', schema: z.unknown(), retry: 'none' });
    return { outcome: 'accepted' };
  } catch (e) {
    if (!(e instanceof ApiError)) return { outcome: 'unchecked', reason: e instanceof Error ? e.message : String(e) };
    if (e.status === 401) return { outcome: 'refused', message: e.error ?? 'Unauthorized' };
    // Any other answer from the service means it read the key (403: no permission for agents; 404: no job list here).
    if (e.kind === 'http' && e.status !== undefined && e.status < 500 && e.status !== 429 && e.status !== 408)
      return { outcome: 'accepted' };
    if (e.kind === 'invalid-response') return { outcome: 'accepted' };
    return { outcome: 'unchecked', reason: e.message };
  } finally {
    await client.close();
  }
}
