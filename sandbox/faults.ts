// Test-mode fault queue (docs/ARCHITECTURE.md, "Fault"): each queued fault answers the next matching
// request(s) under /v2/ instead of the normal handler.
import * as z from 'zod';

const common = { count: z.int().min(1).optional(), path: z.string().startsWith('/').optional() };
export const faultSchema = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('status'),
    status: z.int().min(200).max(599),
    body: z.enum(['json', 'empty', 'html', 'truncated', 'detail', 'title', 'no-success']).optional(),
    error: z.string().optional(),
    retryAfter: z.string().optional(),
    /** Adds `retry_after_seconds` to a JSON body, as production's 429 does. */
    retryAfterSeconds: z.number().optional(),
    ...common,
  }),
  z.strictObject({ kind: z.literal('slow'), ms: z.int().min(0).max(600_000), ...common }),
  z.strictObject({ kind: z.literal('reset'), ...common }),
]);
export const faultsBodySchema = z.strictObject({ faults: z.array(faultSchema) });
export type Fault = z.infer<typeof faultSchema>;

export class FaultQueue {
  private queue: Array<{ fault: Fault; left: number }> = [];

  add(faults: Fault[]): void {
    for (const fault of faults) this.queue.push({ fault, left: fault.count ?? 1 });
  }

  clear(): void {
    this.queue = [];
  }

  get size(): number {
    return this.queue.length;
  }

  /** The first queued fault whose path prefix matches, used up by one; undefined when none matches. */
  take(path: string): Fault | undefined {
    const i = this.queue.findIndex((q) => path.startsWith(q.fault.path ?? '/v2/'));
    if (i < 0) return undefined;
    const q = this.queue[i] as { fault: Fault; left: number };
    if (--q.left <= 0) this.queue.splice(i, 1);
    return q.fault;
  }
}

export const STATUS_MESSAGES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized: Invalid token',
  402: 'Payment Required: Insufficient credits',
  403: 'Forbidden',
  404: 'Not Found',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Payload Too Large',
  422: 'Unprocessable Entity',
  429: 'Rate limit exceeded',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** The answer of a status fault: content type and body bytes for each documented body shape. */
export function statusFaultBody(f: Extract<Fault, { kind: 'status' }>): { contentType?: string; body: string } {
  const message = f.error ?? STATUS_MESSAGES[f.status] ?? `HTTP ${f.status}`;
  switch (f.body ?? 'json') {
    case 'empty':
      return { body: '' };
    case 'html':
      return {
        contentType: 'text/html; charset=utf-8',
        body: `<html>\n<head><title>${f.status} ${escapeHtml(message)}</title></head>\n<body>\n<center><h1>${f.status} ${escapeHtml(message)}</h1></center>\n<hr><center>nginx</center>\n</body>\n</html>\n`,
      };
    case 'truncated': {
      const full = JSON.stringify({
        success: false,
        error: message,
        details: { note: 'this body is cut short on purpose' },
      });
      return {
        contentType: 'application/json; charset=utf-8',
        body: full.slice(0, Math.max(1, Math.floor(full.length / 2))),
      };
    }
    case 'detail':
      return { contentType: 'application/json; charset=utf-8', body: JSON.stringify({ detail: message }) };
    case 'title':
      return {
        contentType: 'application/problem+json',
        body: JSON.stringify({ type: 'about:blank', title: message, status: f.status }),
      };
    case 'no-success':
      return { contentType: 'application/json; charset=utf-8', body: JSON.stringify({ error: message }) };
    case 'json':
      return {
        contentType: 'application/json; charset=utf-8',
        body: JSON.stringify({
          success: false,
          error: message,
          ...(f.retryAfterSeconds !== undefined ? { retry_after_seconds: f.retryAfterSeconds } : {}),
        }),
      };
  }
}

const escapeHtml = (s: string): string =>
  s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] as string);
