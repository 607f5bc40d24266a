// `devindex doctor [--base-url URL] [--json]`: the connection diagnosis in a terminal.
// Loaded by main.ts only for this command. Exit 0 when every check holds, 1 otherwise, 130 on Ctrl+C.
import type { DoctorOptions } from '../doctor/context';
import { diagnose } from '../doctor/diagnose';
import { renderText, reportJson } from '../doctor/render';
import {
  BASE_URL_ENV,
  DEFAULT_BASE_URL,
  INSECURE_HTTP_ENV,
  jsonForTerminal,
  parseCliArgs,
  printError,
  readApiKey,
} from './common';
import { EXIT_FAILURE, EXIT_INTERRUPTED, EXIT_OK, UsageError, type CliIo } from './cliBase';

const DOCTOR_USAGE = `Usage: devindex doctor [--base-url URL] [--json]

Checks, in order, what stands between this machine and the service, and says what to change:
the base URL, name resolution, the proxy that applies (HTTPS_PROXY / HTTP_PROXY / NO_PROXY) and
whether it opens a CONNECT tunnel, the TLS certificate chain (NODE_EXTRA_CA_CERTS), one keyless
search with k=1, the key with one request that spends no credits (DEVINDEX_API_KEY), and the clock.
Every check has its own time limit (--timeout caps it); the whole run takes at most 15 s.

Options:
  --base-url URL   service address (else DEVINDEX_BASE_URL, else ${DEFAULT_BASE_URL})
  --json           print the findings as JSON: { ok, problems, findings: [{ check, status, found, fix? }] }
  -h, --help       show this help

Exit codes: 0 every check holds, 1 a problem was found, 2 invalid options, 130 cancelled (Ctrl+C).
`;

interface DoctorCommandDeps {
  doctor?: Omit<DoctorOptions, 'signal'>;
}

export async function runDoctorCommand(argv: string[], io: CliIo, deps: DoctorCommandDeps = {}): Promise<number> {
  let values: Record<string, unknown>;
  try {
    const parsed = parseCliArgs(argv, {
      'base-url': { type: 'string' },
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    });
    if (parsed.positionals.length)
      throw new UsageError(`doctor takes no arguments; got ${JSON.stringify(parsed.positionals[0]?.slice(0, 40))}`);
    values = parsed.values;
  } catch (e) {
    return printError(io, e, 'devindex doctor');
  }
  if (values.help) {
    io.out(DOCTOR_USAGE);
    return EXIT_OK;
  }
  // The base URL as given: one that does not parse is the first finding, not a usage error.
  const baseUrl = (values['base-url'] as string | undefined) ?? (io.env[BASE_URL_ENV]?.trim() || DEFAULT_BASE_URL);
  const timeouts = { ...deps.doctor?.timeouts };
  if (io.timeoutMs !== undefined) {
    for (const k of ['dns', 'proxyConnect', 'tls', 'service', 'key'] as const)
      timeouts[k] = Math.min(timeouts[k] ?? Infinity, io.timeoutMs);
  }
  const report = await diagnose(
    {
      baseUrl,
      apiKey: readApiKey(io.env),
      network: { env: io.env },
      allowInsecureHttp: io.env[INSECURE_HTTP_ENV]?.trim() === '1',
      surface: 'cli',
    },
    { ...deps.doctor, timeouts, ...(io.signal ? { signal: io.signal } : {}) },
  );
  if (values.json) io.out(`${jsonForTerminal(reportJson(report), 2)}\n`);
  else io.out(renderText(report));
  if (report.cancelled) return EXIT_INTERRUPTED;
  return report.ok ? EXIT_OK : EXIT_FAILURE;
}
