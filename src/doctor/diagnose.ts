// `diagnose()`: the connection checks in order, each with its own time limit, the whole run bounded
// (15 s at most) and cancellable. A failing check never stops the run: the checks that depend on it
// are skipped with the reason, the others still run. No vscode import: the CLI and the editor share it.
import type { Redact } from '../api/redact';
import { noticeWords, requestIdWords } from '../api/notices';
import { CHECK_ORDER, CHECK_TITLES, type CheckId, type DiagnosisReport, type Finding } from './findings';
import { seconds } from './probes';
import { PROXY_ENV_NAMES, secretsRedactor, withoutCredentials } from './secrets';
import { withoutControls } from '../words/controls';
import { type Context, type DoctorInput, type DoctorOptions, type Result } from './context';
import { checkBaseUrl, checkCa, checkProxy } from './localChecks';
import { checkDns, checkProxyConnect, checkTls } from './networkChecks';
import { checkClock, checkKey, checkService } from './serviceChecks';

/** Under 15 s with room for rendering: the checks stop starting at this point. */
export const TOTAL_LIMIT_MS = 14_000;

export async function diagnose(input: DoctorInput, opts: DoctorOptions = {}): Promise<DiagnosisReport> {
  const started = Date.now();
  const env = input.network?.env ?? process.env;
  const redact = secretsRedactor({
    apiKey: input.apiKey,
    proxyUrls: [input.network?.proxy, ...PROXY_ENV_NAMES.map((n) => env[n])],
    proxyAuthorization: input.network?.proxyAuthorization,
  });
  const cx: Context = {
    input,
    opts,
    redact,
    surface: input.surface,
    deadline: started + Math.min(opts.totalMs ?? TOTAL_LIMIT_MS, TOTAL_LIMIT_MS),
    notices: [],
  };
  const findings: Finding[] = [];
  const steps: Record<
    CheckId,
    (cx: Context) => Promise<Omit<Finding, 'check' | 'title'>> | Omit<Finding, 'check' | 'title'>
  > = {
    baseUrl: checkBaseUrl,
    proxy: checkProxy,
    ca: checkCa,
    dns: checkDns,
    proxyConnect: checkProxyConnect,
    tls: checkTls,
    service: checkService,
    key: checkKey,
    clock: checkClock,
  };
  try {
    for (const id of CHECK_ORDER) {
      let f: Omit<Finding, 'check' | 'title'>;
      if (opts.signal?.aborted) f = { status: 'skipped', found: 'cancelled' };
      else if (Date.now() >= cx.deadline)
        f = {
          status: 'skipped',
          found: `not run: the diagnosis is limited to ${seconds(TOTAL_LIMIT_MS + 1000)} and that time is used up`,
        };
      else {
        cx.requestId = undefined;
        cx.notices = [];
        try {
          f = await steps[id](cx);
        } catch (e) {
          // A check's own bug still gives a finding, never a stack trace.
          f = {
            status: 'problem',
            found: `the check failed unexpectedly: ${e instanceof Error ? e.message : String(e)}`,
            fix: {
              text: 'run the diagnosis again; if this stays, report it with Report an Issue (devindex doctor --json output)',
            },
          };
        }
        if (opts.signal?.aborted && f.status !== 'ok') f = { status: 'skipped', found: 'cancelled' };
        f = withRequestFacts(f, cx);
      }
      findings.push(clean({ check: id, title: CHECK_TITLES[id], ...f }, redact));
    }
  } finally {
    cx.tunnel?.destroy();
  }
  const cancelled = opts.signal?.aborted === true;
  return {
    baseUrl: redact(withoutCredentials(input.baseUrl.trim())).slice(0, 300),
    surface: input.surface,
    startedAt: new Date(started).toISOString(),
    ms: Date.now() - started,
    cancelled,
    findings,
    ok: !cancelled && findings.every((f) => f.status !== 'problem'),
  };
}

/**
 * What a check's request said besides its answer: a deprecation or warning is reported with the
 * finding, whatever its status; a problem names the request id the service can look up.
 */
function withRequestFacts(f: Result, cx: Context): Result {
  let out = f;
  if (cx.notices.length && f.status !== 'skipped') {
    const words = cx.notices.map((n) => noticeWords(n, Date.now())).join('; ');
    out = {
      ...out,
      found: `${out.found}; notice: ${words}`,
      notices: cx.notices.map((n) => noticeWords(n, Date.now())),
    };
    if (!out.fix)
      out = {
        ...out,
        fix: {
          text:
            'the service has deprecated what this check uses: update Developer Index ' +
            '(the extension and the devindex CLI) when a newer version is out',
        },
      };
  }
  if (cx.requestId && f.status === 'problem')
    out = { ...out, found: `${out.found} (${requestIdWords(cx.requestId)})`, requestId: cx.requestId };
  return out;
}

/** One line of untrusted text, bounded, without secrets. */
function clean(f: Finding, redact: Redact): Finding {
  const line = (s: string) => withoutControls(redact(s), { lines: 'join', bidi: true, max: 1000 });
  return { ...f, found: line(f.found), ...(f.fix ? { fix: { ...f.fix, text: line(f.fix.text) } } : {}) };
}
