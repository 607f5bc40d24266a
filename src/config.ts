import * as vscode from 'vscode';
import type { NetworkOptions } from './api/network';

/** Production address of the service (addendum: "It must be a setting, never hard-wired"). */
export const DEFAULT_BASE_URL = 'https://api.firecrawl.dev';
const ALL_TYPES = ['doc', 'issue', 'pull_request', 'readme'] as const;

const SECTION = 'devIndex';

interface SearchDefaults {
  k: number;
  passages: number;
  types: string[];
}

function clampInt(v: unknown, min: number, max: number, fallback: number): number {
  return typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max ? v : fallback;
}

/** Typed getters over `devIndex.*`; values outside the declared bounds fall back to the default. */
export const config = {
  baseUrl(): string {
    const raw = vscode.workspace.getConfiguration(SECTION).get<string>('baseUrl', DEFAULT_BASE_URL).trim();
    return raw === '' ? DEFAULT_BASE_URL : raw;
  },
  searchDefaults(): SearchDefaults {
    const c = vscode.workspace.getConfiguration(SECTION);
    const types = c
      .get<string[]>('search.types', [...ALL_TYPES])
      .filter((t) => (ALL_TYPES as readonly string[]).includes(t));
    return {
      k: clampInt(c.get('search.k'), 1, 100, 10),
      passages: clampInt(c.get('search.passages'), 1, 5, 1),
      types: types.length ? types : [...ALL_TYPES],
    };
  },
  requestTimeoutMs(): number {
    return clampInt(vscode.workspace.getConfiguration(SECTION).get('requestTimeoutSeconds'), 1, 300, 30) * 1000;
  },
  maxRetryAfterMs(): number {
    return clampInt(vscode.workspace.getConfiguration(SECTION).get('maxRetryAfterSeconds'), 0, 3600, 60) * 1000;
  },
  /** Application scoped: a workspace's settings cannot raise the credit ceiling offered. */
  defaultMaxCredits(): number {
    return clampInt(userValue('agent.defaultMaxCredits'), 1, 1_000_000, 2500);
  },
  /** `devIndex.agent.extraModels`: names only, trimmed, at most 20 (the start flow and the tools offer them). */
  agentExtraModels(): string[] {
    const v = vscode.workspace.getConfiguration(SECTION).get<unknown>('agent.extraModels', []);
    return Array.isArray(v)
      ? v
          .filter((m): m is string => typeof m === 'string' && m.trim().length > 0 && m.length <= 100)
          .map((m) => m.trim())
          .slice(0, 20)
      : [];
  },
  /** `devIndex.insecure.allowHttpWithKey`: the key may go over plain http to a host that is not loopback. */
  allowInsecureHttp(): boolean {
    return userValue('insecure.allowHttpWithKey') === true;
  },
  /** `devIndex.dependencies.codeAction` and `.hover`: the problem code action and the import hover. */
  dependencyFeature(key: 'codeAction' | 'hover'): boolean {
    return vscode.workspace.getConfiguration(SECTION).get<boolean>(`dependencies.${key}`, true) !== false;
  },
  /** `devIndex.walkthrough.openOnFirstRun`: open the Get Started walkthrough once, on the first activation. */
  openWalkthroughOnFirstRun(): boolean {
    return vscode.workspace.getConfiguration(SECTION).get<boolean>('walkthrough.openOnFirstRun', true) !== false;
  },
  /** `devIndex.fixes.checkOnLockfileChange`: check for fixes again when a lockfile changes (off: searches cost quota). */
  fixesOnLockfileChange(): boolean {
    return vscode.workspace.getConfiguration(SECTION).get<boolean>('fixes.checkOnLockfileChange', false) === true;
  },
  /** `devIndex.dependencies.maxDependencies` (10 to 20,000; default 1,000). */
  maxDependencies(): number {
    return clampInt(vscode.workspace.getConfiguration(SECTION).get('dependencies.maxDependencies'), 10, 20_000, 1000);
  },
  /**
   * Proxy and certificates: VS Code's `http.proxy`, `http.proxyAuthorization`, `http.proxyStrictSSL`,
   * `http.noProxy`, then (in the client) HTTPS_PROXY / HTTP_PROXY / NO_PROXY; extra CAs from
   * `devIndex.network.caFile`, NODE_EXTRA_CA_CERTS and the OS store.
   */
  network(): NetworkOptions {
    const http = vscode.workspace.getConfiguration('http');
    const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : undefined);
    const noProxy = http.get<unknown>('noProxy');
    const caFile = str(userValue('network.caFile'));
    return {
      proxy: str(http.get('proxy')),
      proxyAuthorization: str(http.get('proxyAuthorization')),
      proxyStrictSSL: http.get<boolean>('proxyStrictSSL') !== false,
      noProxy: Array.isArray(noProxy) ? noProxy.filter((h): h is string => typeof h === 'string') : [],
      ...(caFile ? { caFile } : {}),
    };
  },
};

/**
 * The user's (or default) value of an application-scoped setting. VS Code already ignores workspace
 * values for such settings; reading only the global value keeps it so even if the scope were lost.
 */
function userValue(key: string): unknown {
  const i = vscode.workspace.getConfiguration(SECTION).inspect(key);
  return i?.globalValue ?? i?.defaultValue;
}

/** Settings whose change means the service client must be rebuilt. */
const CLIENT_SETTINGS = [
  ...['baseUrl', 'requestTimeoutSeconds', 'maxRetryAfterSeconds', 'network', 'insecure'].map((s) => `${SECTION}.${s}`),
  'http.proxy',
  'http.proxyAuthorization',
  'http.proxyStrictSSL',
  'http.noProxy',
];

/** One handler for every configuration change: rebuilds what depends on the changed setting. */
export function onConfigChange(handlers: { client(): void; searchDefaults(): void }): vscode.Disposable {
  return vscode.workspace.onDidChangeConfiguration((e) => {
    if (CLIENT_SETTINGS.some((s) => e.affectsConfiguration(s))) handlers.client();
    if (e.affectsConfiguration(`${SECTION}.search`)) handlers.searchDefaults();
  });
}
