// What a diagnosis returns: one finding per check, in order, each saying what was checked,
// what was found and, for a problem, the one thing to change, by the name of its setting or variable.
// The names differ per surface: a terminal has variables and flags, the editor has settings and commands.

export type CheckId = 'baseUrl' | 'proxy' | 'ca' | 'dns' | 'proxyConnect' | 'tls' | 'service' | 'key' | 'clock';
type FindingStatus = 'ok' | 'problem' | 'skipped';

export const CHECK_TITLES: Record<CheckId, string> = {
  baseUrl: 'base URL',
  proxy: 'proxy',
  ca: 'certificate authorities',
  dns: 'name resolution',
  proxyConnect: 'proxy connection',
  tls: 'TLS',
  service: 'service',
  key: 'API key',
  clock: 'clock',
};

export const CHECK_ORDER: readonly CheckId[] = [
  'baseUrl',
  'proxy',
  'ca',
  'dns',
  'proxyConnect',
  'tls',
  'service',
  'key',
  'clock',
];

export interface Fix {
  /** One sentence: what to change. */
  text: string;
  /** VS Code settings the text names (the editor links them to the Settings editor). */
  settings?: string[];
  /** An editor command the text names (e.g. Set API Key), linked in the editor. */
  command?: { id: string; title: string };
}

export interface Finding {
  check: CheckId;
  title: string;
  status: FindingStatus;
  /** What was found (ok / problem) or why the check did not run (skipped). */
  found: string;
  /** Present for every problem; sometimes for an ok that deserves a change (credentials in settings). */
  fix?: Fix;
  /** The `External-Request-Id` of the request behind a problem (the service can look it up). */
  requestId?: string;
  /** Deprecations and service warnings the check's request met, in words (also in `found`). */
  notices?: string[];
}

export interface DiagnosisReport {
  /** The base URL as given, with any credentials replaced. */
  baseUrl: string;
  surface: Surface;
  startedAt: string;
  ms: number;
  cancelled: boolean;
  findings: Finding[];
  /** True when no finding is a problem (and the run was not cancelled). */
  ok: boolean;
}

export type Surface = 'cli' | 'editor';

/** The names a fix uses on each surface. */
export const NAMES = {
  baseUrl: { cli: '--base-url or DEVINDEX_BASE_URL', editor: 'devIndex.baseUrl' },
  key: { cli: 'DEVINDEX_API_KEY', editor: 'Developer Index: Set API Key' },
  caFile: { cli: 'NODE_EXTRA_CA_CERTS', editor: 'devIndex.network.caFile' },
  insecure: { cli: 'DEVINDEX_INSECURE_HTTP=1', editor: 'devIndex.insecure.allowHttpWithKey' },
  noProxy: { cli: 'NO_PROXY', editor: 'http.noProxy (or NO_PROXY)' },
  proxyAuth: { cli: 'HTTPS_PROXY=http://user:password@host:port', editor: 'http.proxyAuthorization' },
} as const satisfies Record<string, Record<Surface, string>>;

/** The settings (editor) behind each name, for links. */
export const SETTINGS: Partial<Record<keyof typeof NAMES, string[]>> = {
  baseUrl: ['devIndex.baseUrl'],
  caFile: ['devIndex.network.caFile'],
  insecure: ['devIndex.insecure.allowHttpWithKey'],
  noProxy: ['http.noProxy'],
  proxyAuth: ['http.proxyAuthorization'],
};

export const SET_KEY_COMMAND = { id: 'devIndex.auth.setKey', title: 'Set API Key' } as const;

/** A fix naming `what` on this surface, with the editor's links. */
export function fixNaming(what: keyof typeof NAMES, surface: Surface, text: string): Fix {
  const fix: Fix = { text };
  if (surface === 'editor') {
    const s = SETTINGS[what];
    if (s) fix.settings = [...s];
    if (what === 'key') fix.command = { ...SET_KEY_COMMAND };
  }
  return fix;
}

export function problemCount(findings: readonly Finding[]): number {
  return findings.filter((f) => f.status === 'problem').length;
}
