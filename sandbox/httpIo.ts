// The sandbox's HTTP plumbing: CORS headers, reading a bounded body, the errors a handler throws.
import type { IncomingMessage } from 'node:http';
import { MAX_BODY_BYTES } from './serverSettings';
export class RequestAborted extends Error {}

export class HttpError extends Error {
  constructor(readonly status: number, readonly body: Record<string, unknown>) { super(String(body.error)); }
}


/**
 * On every answer: any origin may read it, and the headers the client reads are exposed (a browser
 * shows a script only the CORS-safelisted ones otherwise: Retry-After and WWW-Authenticate are not).
 */
export const CORS_HEADERS: Readonly<Record<string, string>> = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'Retry-After, WWW-Authenticate, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Location, Date, Deprecation, Sunset, Link, Warning',
};

/** A preflight's answer: the methods and request headers the client sends (Authorization is never covered by a `*`). */
export const PREFLIGHT_HEADERS: Readonly<Record<string, string>> = {
  'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
  'access-control-allow-headers': 'Authorization, Content-Type, Accept, External-Request-Id',
  'access-control-max-age': '600',
  'content-length': '0',
};

/** The body as text, or `tooLarge` past MAX_BODY_BYTES (the rest is drained, not kept). */
export function readBody(req: IncomingMessage): Promise<{ raw: string; tooLarge: boolean }> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= MAX_BODY_BYTES) parts.push(c);
    });
    let ended = false;
    req.on('end', () => { ended = true; resolve(size > MAX_BODY_BYTES ? { raw: '', tooLarge: true } : { raw: Buffer.concat(parts).toString('utf8'), tooLarge: false }); });
    // A client that hangs up mid-body: node reports `aborted` (ECONNRESET) or just closes the request.
    req.on('error', (e: NodeJS.ErrnoException) => reject(e.code === 'ECONNRESET' || e.message === 'aborted' ? new RequestAborted(e.message) : e));
    req.on('close', () => { if (!ended) reject(new RequestAborted('closed')); });
  });
}
