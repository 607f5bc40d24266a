// The sandbox: a local service that answers like the web-data service's developer index search
// (spec section 4.1), with the agent endpoints handed to sandbox/agent. Binds 127.0.0.1 only.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAgentService } from './agent/service';
import { EXCHANGE_ERRORS } from './agent/exchange';
import { FaultQueue, faultsBodySchema, statusFaultBody, type Fault } from './faults';
import { RateLimiter } from './rateLimit';
import { loadCorpus, repositoryDoc } from './search/corpus';
import { queryToInput, validateSearchRequest } from './search/params';
import { SearchEngine } from './search/searchEngine';
import {
  type Wire,
  asksForWeb,
  corpusBodySchema,
  CORS_HEADERS,
  DEFAULT_DEPRECATION,
  DEFAULT_KEYLESS_RATE_LIMIT,
  DEFAULT_RATE_LIMIT,
  DEFAULT_WIRE,
  defaultCorpusDir,
  deprecationsBodySchema,
  type DeprecationSetting,
  HttpError,
  KEYED_SEARCH_PATH,
  KEYLESS_MESSAGES,
  keylessBodySchema,
  type KeylessRefusal,
  keysBodySchema,
  type LoggedRequest,
  MAX_BODY_BYTES,
  MAX_BODY_DEPTH,
  MAX_LOG,
  MAX_LOG_BYTES,
  MAX_LOGGED_BODY_BYTES,
  MAX_REQUEST_ID_BYTES,
  nestingExceeds,
  NOT_FOUND_DOCUMENTATION_URL,
  PREFLIGHT_HEADERS,
  readBody,
  RequestAborted,
  safeHost,
  type Sandbox,
  type SandboxOptions,
  SEARCH_PATH,
  secondsToUtcMidnight,
  signupUrlFor,
  teamOf,
  WEB_TYPE_ERROR,
} from './serverParts';

export async function startSandbox(o: SandboxOptions = {}): Promise<Sandbox> {
  const log = (m: string): void => {
    if (!o.quiet) console.error(m);
  };
  const corpus = loadCorpus(o.corpusDir ?? defaultCorpusDir(), log);
  const engine = new SearchEngine(corpus);
  const keys = new Set(o.keys ?? []);
  const unlicensed = new Set<string>();
  const rateLimit = o.rateLimit ?? DEFAULT_RATE_LIMIT;
  const keylessRateLimit = o.keylessRateLimit ?? DEFAULT_KEYLESS_RATE_LIMIT;
  const limiter = new RateLimiter();
  const faults = new FaultQueue();
  const requests: LoggedRequest[] = [];
  const requestSizes: number[] = [];
  let logBytes = 0;
  const timers = new Set<NodeJS.Timeout>();
  const wire: Wire = o.wire ?? DEFAULT_WIRE;
  const agent = createAgentService({
    speed: o.agentSpeed ?? 1,
    wire,
    testMode: o.faults === true,
    threadsDisabled: o.threadsDisabled === true,
  });
  const keyless = {
    refuse: null as KeylessRefusal,
    daily: o.keylessDaily ?? 0,
    retryAfterHeader: o.keylessRetryAfterHeader === true,
    reason: 'requests' as 'requests' | 'credits',
    used: new Map<string, { day: number; count: number }>(),
  };
  const dayOf = (t: number): number => Math.floor(t / 86_400_000);
  let deprecation: DeprecationSetting = { paths: [...(o.deprecated ?? [])], ...DEFAULT_DEPRECATION };
  /** Answers whose JSON object body gets `warnings` and `replacement` (a deprecated path's). */
  const warnBodies = new WeakSet<ServerResponse>();
  const isDeprecated = (path: string): boolean =>
    wire === 'production' &&
    deprecation.paths.some((p) => path === p || path.startsWith(p.endsWith('/') ? p : `${p}/`));

  const send = (res: ServerResponse, status: number, body?: unknown, headers: Record<string, string> = {}): void => {
    if (res.destroyed || res.headersSent) return;
    const withWarnings =
      warnBodies.has(res) && body !== null && typeof body === 'object' && !Array.isArray(body)
        ? {
            ...(body as Record<string, unknown>),
            warnings: [deprecation.warning],
            replacement: deprecation.replacement,
          }
        : body;
    const text = withWarnings === undefined ? '' : JSON.stringify(withWarnings);
    res.writeHead(status, {
      ...(body === undefined ? {} : { 'content-type': 'application/json; charset=utf-8' }),
      'content-length': String(Buffer.byteLength(text)),
      ...headers,
    });
    res.end(text);
  };
  const fail = (
    res: ServerResponse,
    status: number,
    error: string,
    extra: Record<string, unknown> = {},
    headers?: Record<string, string>,
  ): void => send(res, status, { success: false, error, ...extra }, headers);

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
      throw new HttpError(400, {
        success: false,
        error: 'Bad Request',
        details: [{ code: 'too_deep', path: [], message: `the body is nested deeper than ${MAX_BODY_DEPTH} levels` }],
      });
    }
    try {
      return JSON.parse(raw);
    } catch (e) {
      throw new HttpError(400, {
        success: false,
        error: 'Bad Request',
        details: [{ code: 'invalid_json', path: [], message: `the body is not valid JSON: ${(e as Error).message}` }],
      });
    }
  };

  function search(req: IncomingMessage, res: ServerResponse, url: URL, raw: string, key: string | undefined): void {
    const input = req.method === 'GET' ? queryToInput(url.searchParams, wire) : parseBody(raw);
    if (wire === 'production' && key === undefined && !keylessAllowed(req, res, url)) return;
    if (wire === 'production' && asksForWeb(input)) {
      send(res, 400, WEB_TYPE_ERROR);
      return;
    }
    const v = validateSearchRequest(input, wire);
    if (!v.ok) {
      fail(res, 400, v.failure.error, v.failure.details === undefined ? {} : { details: v.failure.details });
      return;
    }
    send(
      res,
      200,
      wire === 'production'
        ? engine.search(v.request, 'production', {
            license: key !== undefined ? o.licenseKeyed === true && !unlicensed.has(key) : o.licenseKeyless === true,
            passageBudget: o.passageBudget,
          })
        : engine.search(v.request),
    );
  }

  /** Production's keyless gate: a refused network (401/403), then the daily quota per address (429). Counts the request. */
  function keylessAllowed(req: IncomingMessage, res: ServerResponse, url: URL): boolean {
    if (keyless.refuse === 'suspicious') {
      fail(res, 403, KEYLESS_MESSAGES.suspicious);
      return false;
    }
    if (keyless.refuse === 'ipv6' || keyless.refuse === 'off') {
      fail(res, 401, KEYLESS_MESSAGES[keyless.refuse]);
      return false;
    }
    if (keyless.daily <= 0) return true;
    const t = Date.now();
    const addr = req.socket.remoteAddress ?? '';
    let u = keyless.used.get(addr);
    if (!u || u.day !== dayOf(t)) {
      if (keyless.used.size > 10_000) keyless.used.clear();
      u = { day: dayOf(t), count: 0 };
      keyless.used.set(addr, u);
    }
    if (u.count >= keyless.daily) {
      const wait = secondsToUtcMidnight(t);
      // Late November 2026: the caller's own link to create a key, besides the message's sign-in link.
      fail(
        res,
        429,
        KEYLESS_MESSAGES.quota,
        { reason: keyless.reason, retry_after_seconds: wait, signup_url: signupUrlFor(addr, dayOf(t)) },
        {
          'www-authenticate': `Bearer resource_metadata="http://${safeHost(req.headers.host) ?? `127.0.0.1:${url.port}`}/.well-known/oauth-protected-resource"`,
          ...(keyless.retryAfterHeader ? { 'retry-after': String(wait) } : {}),
        },
      );
      return false;
    }
    u.count++;
    return true;
  }

  /** An unknown path: production's JSON 404 names the method and path; the spec wire says `Not Found`. */
  function notFound(req: IncomingMessage, res: ServerResponse, path: string): void {
    if (wire === 'spec') {
      fail(res, 404, 'Not Found');
      return;
    }
    fail(
      res,
      404,
      `${req.method ?? 'GET'} ${path.slice(0, 200)} is not a Firecrawl API endpoint.`,
      { code: 'NOT_FOUND', documentation_url: NOT_FOUND_DOCUMENTATION_URL },
      { 'x-content-type-options': 'nosniff' },
    );
  }

  function route(req: IncomingMessage, res: ServerResponse, url: URL, raw: string, key: string | undefined): void {
    const path = url.pathname;
    if (path === SEARCH_PATH || (wire === 'production' && path === KEYED_SEARCH_PATH)) {
      if (req.method !== 'GET' && req.method !== 'POST') {
        notFound(req, res, path);
        return;
      }
      if (path === KEYED_SEARCH_PATH && key === undefined) {
        fail(res, 401, 'Unauthorized: Invalid token');
        return;
      }
      search(req, res, url, raw, key);
      return;
    }
    if (path === '/v2/scrape' && req.method === 'POST') {
      // Exchange calls (terms/show, terms/accept) for the agent's terms approvals: sandbox/agent/exchange.ts.
      if (key === undefined) {
        if (wire === 'production') fail(res, 403, EXCHANGE_ERRORS.keyless);
        else fail(res, 401, 'Unauthorized: Invalid token');
        return;
      }
      const retryId = req.headers['x-request-id'];
      const reply = agent.scrape({
        method: 'POST',
        path,
        query: url.searchParams,
        body: parseBody(raw),
        team: teamOf(key),
        retryId: typeof retryId === 'string' ? retryId : undefined,
      });
      send(res, reply.status, reply.body, reply.headers);
      return;
    }
    if (path === '/v2/agent' || path.startsWith('/v2/agent/')) {
      if (key === undefined) {
        fail(res, 401, 'Unauthorized: Invalid token');
        return;
      }
      const reply = agent.handle({
        method: req.method ?? 'GET',
        path,
        query: url.searchParams,
        body: parseBody(raw),
        team: teamOf(key),
        origin: `http://${req.headers.host ?? ''}`,
      });
      if (!reply) {
        notFound(req, res, path);
        return;
      }
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
        const t = setTimeout(() => {
          timers.delete(t);
          then();
        }, f.ms);
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
      if (!parsed.success) {
        fail(res, 400, 'Bad Request', { details: parsed.error.issues });
        return;
      }
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
      if (!parsed.success) {
        fail(res, 400, 'Bad Request', { details: parsed.error.issues });
        return;
      }
      for (const k of parsed.data.add ?? []) keys.add(k);
      for (const k of parsed.data.revoke ?? []) {
        keys.delete(k);
        unlicensed.delete(k);
      }
      for (const k of parsed.data.withoutLicense ?? []) {
        keys.add(k);
        unlicensed.add(k);
      }
      send(res, 200, { success: true, keys: keys.size });
    } else if (path === '/__sandbox/corpus' && req.method === 'POST') {
      // A new issue or pull request appears in the index (how a watch meets a new result between two checks).
      const parsed = corpusBodySchema.safeParse(parseBody(raw));
      if (!parsed.success) {
        fail(res, 400, 'Bad Request', { details: parsed.error.issues });
        return;
      }
      const added: string[] = [];
      for (const a of parsed.data.add) {
        const doc = repositoryDoc(corpus, a.repo, a.type, a.number, a.markdown);
        if (!doc) {
          fail(res, 400, 'Bad Request', { details: `${a.repo} is not an indexed repository of the corpus` });
          return;
        }
        engine.addDoc(doc);
        added.push(doc.id);
      }
      send(res, 200, { success: true, added });
    } else if (path === '/__sandbox/deprecations' && req.method === 'POST') {
      // Production wire: which paths answer as deprecated, and with what (sandbox/README.md, "Deprecated endpoints").
      if (wire !== 'production') {
        fail(res, 400, 'Bad Request', {
          details: 'deprecation headers are production-wire behaviour; this sandbox runs --wire spec',
        });
        return;
      }
      const parsed = deprecationsBodySchema.safeParse(parseBody(raw));
      if (!parsed.success) {
        fail(res, 400, 'Bad Request', { details: parsed.error.issues });
        return;
      }
      const b = parsed.data;
      deprecation = {
        paths: b.paths,
        deprecation: b.deprecation ?? DEFAULT_DEPRECATION.deprecation,
        sunset: b.sunset ?? DEFAULT_DEPRECATION.sunset,
        successor: b.successor ?? DEFAULT_DEPRECATION.successor,
        warning: b.warning ?? DEFAULT_DEPRECATION.warning,
        body: b.body ?? DEFAULT_DEPRECATION.body,
        replacement: b.replacement ?? DEFAULT_DEPRECATION.replacement,
      };
      send(res, 200, { success: true, ...deprecation });
    } else if (path === '/__sandbox/keyless' && req.method === 'POST') {
      const parsed = keylessBodySchema.safeParse(parseBody(raw));
      if (!parsed.success) {
        fail(res, 400, 'Bad Request', { details: parsed.error.issues });
        return;
      }
      const b = parsed.data;
      if (b.refuse !== undefined) keyless.refuse = b.refuse;
      if (b.daily !== undefined) keyless.daily = b.daily;
      if (b.retryAfterHeader !== undefined) keyless.retryAfterHeader = b.retryAfterHeader;
      if (b.reason !== undefined) keyless.reason = b.reason;
      if (b.reset === true) keyless.used.clear();
      send(res, 200, {
        success: true,
        refuse: keyless.refuse,
        daily: keyless.daily,
        retryAfterHeader: keyless.retryAfterHeader,
        reason: keyless.reason,
      });
    } else {
      const reply = agent.control(req.method ?? 'GET', path, parseBody(raw));
      if (reply) send(res, reply.status, reply.body, reply.headers);
      else fail(res, 404, 'Not Found');
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const path = url.pathname;
    // CORS, as production answers browsers (the web extension in vscode.dev and github.dev): every
    // origin, every answer (errors and faults included), and preflights answered before anything else
    // (not logged, not rate limited, no key needed), on both wires.
    for (const [name, value] of Object.entries(CORS_HEADERS)) res.setHeader(name, value);
    if (req.method === 'OPTIONS') {
      req.resume();
      res.writeHead(204, PREFLIGHT_HEADERS);
      res.end();
      return;
    }
    let read: { raw: string; tooLarge: boolean };
    try {
      read = await readBody(req);
    } catch (e) {
      if (!(e instanceof RequestAborted)) throw e;
      log(
        `sandbox: ${req.method ?? 'GET'} ${path.slice(0, 200)}: the client closed the connection before the whole request arrived`,
      );
      return;
    }
    const { raw, tooLarge } = read;
    if (path.startsWith('/__sandbox/')) {
      if (tooLarge) {
        fail(res, 413, 'Payload Too Large');
        return;
      }
      if (!o.faults) {
        fail(res, 404, 'Not Found');
        return;
      }
      control(req, res, path, raw);
      return;
    }
    if (!path.startsWith('/v2/')) {
      notFound(req, res, path);
      return;
    }
    if (isDeprecated(path)) {
      // On every answer of the path, errors and faults included (setHeader merges into any writeHead).
      res.setHeader('deprecation', deprecation.deprecation);
      res.setHeader('sunset', deprecation.sunset);
      res.setHeader('link', `<${deprecation.successor}>; rel="successor-version"`);
      res.setHeader('warning', `299 - "${deprecation.warning}"`);
      if (deprecation.body) warnBodies.add(res);
    }

    const { auth, key } = authOf(req);
    if (o.faults) {
      let body: unknown = null;
      const bytes = Buffer.byteLength(raw);
      if (tooLarge) body = `(${MAX_BODY_BYTES}+ bytes, not kept)`;
      else if (bytes > MAX_LOGGED_BODY_BYTES)
        body = { cut: true, bytes, prefix: Buffer.from(raw).subarray(0, MAX_LOGGED_BODY_BYTES).toString('utf8') };
      else if (raw !== '' && nestingExceeds(raw, MAX_BODY_DEPTH))
        body = `(nested deeper than ${MAX_BODY_DEPTH} levels, not kept)`;
      else if (raw !== '') {
        try {
          body = JSON.parse(raw);
        } catch {
          body = raw;
        }
      }
      // The budget counts the bytes received (as before the prefix existed), so a run of large bodies still turns the log over.
      const size = bytes + path.length + url.search.length + 64;
      while (requests.length && (requests.length >= MAX_LOG || logBytes + size > MAX_LOG_BYTES)) {
        requests.shift();
        logBytes -= requestSizes.shift() ?? 0;
      }
      const origin = req.headers.origin;
      const rid = wire === 'production' ? req.headers['external-request-id'] : undefined;
      const requestId =
        typeof rid === 'string'
          ? Buffer.byteLength(rid) <= MAX_REQUEST_ID_BYTES
            ? rid
            : `(${Buffer.byteLength(rid)} bytes, over ${MAX_REQUEST_ID_BYTES}: not kept)`
          : undefined;
      requests.push({
        method: req.method ?? 'GET',
        path,
        query: url.search.replace(/^\?/, ''),
        body,
        auth,
        ...(origin ? { origin: origin.slice(0, 200) } : {}),
        ...(requestId !== undefined ? { requestId } : {}),
        ...(typeof req.headers['x-request-id'] === 'string'
          ? { retryId: req.headers['x-request-id'].slice(0, 128) }
          : {}),
      });
      requestSizes.push(size);
      logBytes += size;
    }
    if (auth === 'invalid') {
      fail(res, 401, 'Unauthorized: Invalid token');
      return;
    }
    if (tooLarge) {
      fail(res, 413, 'Payload Too Large');
      return;
    }
    const limited =
      key !== undefined
        ? limiter.hit(teamOf(key), rateLimit)
        : limiter.hit(`addr:${req.socket.remoteAddress ?? ''}`, keylessRateLimit);
    if (!limited.ok) {
      // Production's route tests: the header and the same delay as `retry_after_seconds` in the body.
      fail(
        res,
        429,
        'Rate limit exceeded',
        wire === 'production' ? { retry_after_seconds: limited.retryAfterSeconds } : {},
        { 'retry-after': String(limited.retryAfterSeconds) },
      );
      return;
    }

    const go = (): void => {
      try {
        route(req, res, url, raw, key);
      } catch (e) {
        answerError(res, e);
      }
    };
    const fault = o.faults ? faults.take(path) : undefined;
    if (fault) applyFault(fault, req, res, go);
    else go();
  }

  function answerError(res: ServerResponse, e: unknown): void {
    if (e instanceof HttpError) send(res, e.status, e.body);
    else {
      log(`sandbox: internal error: ${(e as Error)?.stack ?? String(e)}`);
      fail(res, 500, 'Internal Server Error');
    }
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => answerError(res, e));
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;
  if (!o.quiet) console.log(`sandbox listening on ${url}`);

  let closing: Promise<void> | undefined;
  return {
    url,
    port,
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
