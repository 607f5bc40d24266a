// The sandbox: a local service that answers like the web-data service's developer index search
// (spec section 4.1), with the agent endpoints handed to sandbox/agent. Binds 127.0.0.1 only.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { createAgentService } from './agent/service';
import { FaultQueue, faultsBodySchema, statusFaultBody, type Fault } from './faults';
import { RateLimiter } from './rateLimit';
import { loadCorpus } from './search/corpus';
import { queryToInput, validateSearchRequest } from './search/params';
import { SearchEngine, type Wire } from './search/searchEngine';

export interface SandboxOptions {
  port?: number; keys?: string[]; faults?: boolean; corpusDir?: string;
  rateLimit?: number; keylessRateLimit?: number; agentSpeed?: number; quiet?: boolean;
  /** Which response shapes to serve (default `production`): see sandbox/README.md, "Wire". */
  wire?: Wire;
}

export interface Sandbox { url: string; port: number; close(): Promise<void> }

/** One entry of `GET /__sandbox/requests`. `query` is the raw query string without `?` ('' when none). */
export interface LoggedRequest { method: string; path: string; query: string; body: unknown; auth: 'none' | 'valid' | 'invalid' }

export const DEFAULT_RATE_LIMIT = 600;
export const DEFAULT_KEYLESS_RATE_LIMIT = 60;
/** Largest request body read; above it the answer is 413 `Payload Too Large`. */
export const MAX_BODY_BYTES = 1024 * 1024;
const MAX_LOG = 10_000;
/** The request log (test mode) keeps the newest entries within this many bytes of bodies, paths and queries. */
export const MAX_LOG_BYTES = 16 * 1024 * 1024;
/** A JSON body nested deeper than this is refused with 400 before anything walks it. */
export const MAX_BODY_DEPTH = 100;

/** Whether JSON text nests deeper than `max` (a linear scan that skips strings; no recursion). */
export function nestingExceeds(text: string, max: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) { for (i++; i < text.length && text.charCodeAt(i) !== 34; i++) if (text.charCodeAt(i) === 92) i++; } else if (c === 91 || c === 123) { if (++depth > max) return true; } else if (c === 93 || c === 125) depth--;
  }
  return false;
}
const SEARCH_PATH = '/v2/search/developer';
/** Production's second mount of the same search: keyless callers get 401 (addendum). */
const KEYED_SEARCH_PATH = '/v2/developer/search';
export const DEFAULT_WIRE: Wire = 'production';

/** The repository root: the nearest folder above `from` whose package.json is this project's. */
export function findRepoRoot(from: string = __dirname): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg)) {
      try { if ((JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'devindex') return dir; } catch { /* not ours */ }
    }
    if (dirname(dir) === dir) return undefined;
  }
}

export function defaultCorpusDir(): string {
  const root = findRepoRoot() ?? findRepoRoot(process.cwd());
  if (!root) throw new Error('sandbox: cannot find the repository root (package.json named devindex); pass corpusDir / --corpus');
  return join(root, 'sandbox', 'corpus');
}

/** Opaque, stable id for a key: the agent engine's `team`, and the rate-limit bucket. Never the key. */
export const teamOf = (key: string): string => `team_${createHash('sha256').update(key).digest('hex').slice(0, 16)}`;

const keysBodySchema = z.strictObject({ add: z.array(z.string().min(1).max(512)).optional(), revoke: z.array(z.string().min(1).max(512)).optional() });

class HttpError extends Error {
  constructor(readonly status: number, readonly body: Record<string, unknown>) { super(String(body.error)); }
}

export async function startSandbox(o: SandboxOptions = {}): Promise<Sandbox> {
  const log = (m: string): void => { if (!o.quiet) console.error(m); };
  const corpus = loadCorpus(o.corpusDir ?? defaultCorpusDir(), log);
  const engine = new SearchEngine(corpus);
  const keys = new Set(o.keys ?? []);
  const rateLimit = o.rateLimit ?? DEFAULT_RATE_LIMIT;
  const keylessRateLimit = o.keylessRateLimit ?? DEFAULT_KEYLESS_RATE_LIMIT;
  const limiter = new RateLimiter();
  const faults = new FaultQueue();
  const requests: LoggedRequest[] = [];
  const requestSizes: number[] = [];
  let logBytes = 0;
  const timers = new Set<NodeJS.Timeout>();
  const wire: Wire = o.wire ?? DEFAULT_WIRE;
  const agent = createAgentService({ speed: o.agentSpeed ?? 1, wire, testMode: o.faults === true });

  const send = (res: ServerResponse, status: number, body?: unknown, headers: Record<string, string> = {}): void => {
    if (res.destroyed || res.headersSent) return;
    const text = body === undefined ? '' : JSON.stringify(body);
    res.writeHead(status, {
      ...(body === undefined ? {} : { 'content-type': 'application/json; charset=utf-8' }),
      'content-length': String(Buffer.byteLength(text)),
      ...headers,
    });
    res.end(text);
  };
  const fail = (res: ServerResponse, status: number, error: string, extra: Record<string, unknown> = {}, headers?: Record<string, string>): void =>
    send(res, status, { success: false, error, ...extra }, headers);

  const authOf = (req: IncomingMessage): { auth: LoggedRequest['auth']; key?: string } => {
    const h = req.headers.authorization;
    if (h === undefined) return { auth: 'none' };
    const m = /^Bearer ([^\s]+)$/.exec(h.trim());
    if (m && keys.has(m[1] as string)) return { auth: 'valid', key: m[1] as string };
    return { auth: 'invalid' };
  };

  const parseBody = (raw: string): unknown => {
    if (raw === '') return undefined;
    if (nestingExceeds(raw, MAX_BODY_DEPTH)) {
      throw new HttpError(400, { success: false, error: 'Bad Request',
        details: [{ code: 'too_deep', path: [], message: `the body is nested deeper than ${MAX_BODY_DEPTH} levels` }] });
    }
    try { return JSON.parse(raw); } catch (e) {
      throw new HttpError(400, { success: false, error: 'Bad Request',
        details: [{ code: 'invalid_json', path: [], message: `the body is not valid JSON: ${(e as Error).message}` }] });
    }
  };

  function search(req: IncomingMessage, res: ServerResponse, url: URL, raw: string): void {
    const input = req.method === 'GET' ? queryToInput(url.searchParams, wire) : parseBody(raw);
    const v = validateSearchRequest(input, wire);
    if (!v.ok) { fail(res, 400, v.failure.error, v.failure.details === undefined ? {} : { details: v.failure.details }); return; }
    send(res, 200, wire === 'production' ? engine.search(v.request, 'production') : engine.search(v.request));
  }

  /** An unknown path: production's JSON 404 names the method and path; the spec wire says `Not Found`. */
  function notFound(req: IncomingMessage, res: ServerResponse, path: string): void {
    if (wire === 'spec') { fail(res, 404, 'Not Found'); return; }
    fail(res, 404, `${req.method ?? 'GET'} ${path.slice(0, 200)} is not a Firecrawl API endpoint.`,
      { code: 'NOT_FOUND', documentation_url: 'https://docs.firecrawl.dev' });
  }

  function route(req: IncomingMessage, res: ServerResponse, url: URL, raw: string, key: string | undefined): void {
    const path = url.pathname;
    if (path === SEARCH_PATH || (wire === 'production' && path === KEYED_SEARCH_PATH)) {
      if (req.method !== 'GET' && req.method !== 'POST') { notFound(req, res, path); return; }
      if (path === KEYED_SEARCH_PATH && key === undefined) { fail(res, 401, 'Unauthorized: Invalid token'); return; }
      search(req, res, url, raw);
      return;
    }
    if (path === '/v2/agent' || path.startsWith('/v2/agent/')) {
      if (key === undefined) { fail(res, 401, 'Unauthorized: Invalid token'); return; }
      const reply = agent.handle({ method: req.method ?? 'GET', path, query: url.searchParams, body: parseBody(raw), team: teamOf(key), origin: `http://${req.headers.host ?? ''}` });
      if (!reply) { notFound(req, res, path); return; }
      send(res, reply.status, reply.body, reply.headers);
      return;
    }
    notFound(req, res, path);
  }

  function applyFault(f: Fault, req: IncomingMessage, res: ServerResponse, then: () => void): void {
    switch (f.kind) {
      case 'reset':
        req.socket.resetAndDestroy();
        return;
      case 'slow': {
        const t = setTimeout(() => { timers.delete(t); then(); }, f.ms);
        timers.add(t);
        return;
      }
      case 'status': {
        const { contentType, body } = statusFaultBody(f);
        res.writeHead(f.status, {
          ...(contentType ? { 'content-type': contentType } : {}),
          'content-length': String(Buffer.byteLength(body)),
          ...(f.retryAfter !== undefined ? { 'retry-after': f.retryAfter } : {}),
        });
        res.end(body);
      }
    }
  }

  function control(req: IncomingMessage, res: ServerResponse, path: string, raw: string): void {
    if (path === '/__sandbox/faults' && req.method === 'POST') {
      const parsed = faultsBodySchema.safeParse(parseBody(raw));
      if (!parsed.success) { fail(res, 400, 'Bad Request', { details: parsed.error.issues }); return; }
      faults.add(parsed.data.faults);
      send(res, 200, { success: true, queued: faults.size });
    } else if (path === '/__sandbox/faults' && req.method === 'DELETE') {
      faults.clear();
      send(res, 200, { success: true });
    } else if (path === '/__sandbox/requests' && req.method === 'GET') {
      send(res, 200, { requests });
    } else if (path === '/__sandbox/requests' && req.method === 'DELETE') {
      requests.length = 0;
      requestSizes.length = 0;
      logBytes = 0;
      send(res, 200, { success: true });
    } else if (path === '/__sandbox/keys' && req.method === 'POST') {
      // Issue or revoke keys while running (a key revoked after it was saved is how a user meets a 401).
      const parsed = keysBodySchema.safeParse(parseBody(raw));
      if (!parsed.success) { fail(res, 400, 'Bad Request', { details: parsed.error.issues }); return; }
      for (const k of parsed.data.add ?? []) keys.add(k);
      for (const k of parsed.data.revoke ?? []) keys.delete(k);
      send(res, 200, { success: true, keys: keys.size });
    } else {
      const reply = agent.control(req.method ?? 'GET', path, parseBody(raw));
      if (reply) send(res, reply.status, reply.body, reply.headers); else fail(res, 404, 'Not Found');
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const path = url.pathname;
    const { raw, tooLarge } = await readBody(req);
    if (path.startsWith('/__sandbox/')) {
      if (tooLarge) { fail(res, 413, 'Payload Too Large'); return; }
      if (!o.faults) { fail(res, 404, 'Not Found'); return; }
      control(req, res, path, raw);
      return;
    }
    if (!path.startsWith('/v2/')) { notFound(req, res, path); return; }

    const { auth, key } = authOf(req);
    if (o.faults) {
      let body: unknown = null;
      if (tooLarge) body = `(${MAX_BODY_BYTES}+ bytes, not kept)`;
      else if (raw !== '' && nestingExceeds(raw, MAX_BODY_DEPTH)) body = `(nested deeper than ${MAX_BODY_DEPTH} levels, not kept)`;
      else if (raw !== '') { try { body = JSON.parse(raw); } catch { body = raw; } }
      const size = Buffer.byteLength(raw) + path.length + url.search.length + 64;
      while (requests.length && (requests.length >= MAX_LOG || logBytes + size > MAX_LOG_BYTES)) { requests.shift(); logBytes -= requestSizes.shift() ?? 0; }
      requests.push({ method: req.method ?? 'GET', path, query: url.search.replace(/^\?/, ''), body, auth });
      requestSizes.push(size);
      logBytes += size;
    }
    if (auth === 'invalid') { fail(res, 401, 'Unauthorized: Invalid token'); return; }
    if (tooLarge) { fail(res, 413, 'Payload Too Large'); return; }
    const limited = key !== undefined ? limiter.hit(teamOf(key), rateLimit)
      : limiter.hit(`addr:${req.socket.remoteAddress ?? ''}`, keylessRateLimit);
    if (!limited.ok) {
      // Production's route tests: the header and the same delay as `retry_after_seconds` in the body.
      fail(res, 429, 'Rate limit exceeded', wire === 'production' ? { retry_after_seconds: limited.retryAfterSeconds } : {},
        { 'retry-after': String(limited.retryAfterSeconds) });
      return;
    }

    const go = (): void => {
      try { route(req, res, url, raw, key); } catch (e) { answerError(res, e); }
    };
    const fault = o.faults ? faults.take(path) : undefined;
    if (fault) applyFault(fault, req, res, go); else go();
  }

  function answerError(res: ServerResponse, e: unknown): void {
    if (e instanceof HttpError) send(res, e.status, e.body);
    else { log(`sandbox: internal error: ${(e as Error)?.stack ?? String(e)}`); fail(res, 500, 'Internal Server Error'); }
  }

  const server = createServer((req, res) => { handle(req, res).catch((e: unknown) => answerError(res, e)); });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port ?? 0, '127.0.0.1', () => { server.off('error', reject); resolve(); });
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;
  if (!o.quiet) console.log(`sandbox listening on ${url}`);

  let closing: Promise<void> | undefined;
  return {
    url, port,
    close(): Promise<void> {
      closing ??= new Promise<void>((resolve) => {
        for (const t of timers) clearTimeout(t);
        timers.clear();
        agent.close();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}

/** The body as text, or `tooLarge` past MAX_BODY_BYTES (the rest is drained, not kept). */
function readBody(req: IncomingMessage): Promise<{ raw: string; tooLarge: boolean }> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= MAX_BODY_BYTES) parts.push(c);
    });
    req.on('end', () => resolve(size > MAX_BODY_BYTES ? { raw: '', tooLarge: true } : { raw: Buffer.concat(parts).toString('utf8'), tooLarge: false }));
    req.on('error', reject);
  });
}
