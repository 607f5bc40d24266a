// What every extension-host suite needs: the extension's test surface, the runner's environment, the
// requests the sandbox saw, and a wait for a condition. Bundled into each suite (not a suite itself).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { RecordStorage } from '../../src/storage/sharedRecords';
import type { DevIndexExtensionApi } from '../../src/testHooks/surface';

export const EXTENSION_ID = 'devindex.devindex';

/** The last search's outcome, as the test surface reports it. */
export type { LastSearch } from '../../src/search/session/searchService';

/** What activate() returns in a test build under a host tier (DEVINDEX_TEST_KEY set; docs/ARCHITECTURE.md). */
export type { DevIndexExtensionApi };

/** A request the sandbox saw (`GET /__sandbox/requests`); `auth` says how its key compared. */
export interface SeenRequest {
  method: string;
  path: string;
  query: string;
  body: unknown;
  auth: 'none' | 'valid' | 'invalid';
}

/** A variable the host-test runner sets. */
export function env(name: string): string {
  const v = process.env[name];
  assert.ok(v, `${name} is not set: run this suite with npm run test:host`);
  return v;
}

export function extension(): vscode.Extension<unknown> {
  const ext = vscode.extensions.getExtension(EXTENSION_ID);
  assert.ok(ext, `extension ${EXTENSION_ID} is not loaded in this extension host`);
  return ext;
}

/** Activates the extension and checks that it returned the whole test surface. */
export async function api(): Promise<DevIndexExtensionApi> {
  const a = (await extension().activate()) as Partial<DevIndexExtensionApi> | undefined;
  assert.ok(
    a &&
      typeof a.baseUrl === 'function' &&
      a.apiKey &&
      typeof a.apiKey.get === 'function' &&
      typeof a.apiKey.set === 'function' &&
      typeof a.apiKey.clear === 'function' &&
      typeof a.lastSearch === 'function',
    'activate() must return the DevIndexExtensionApi test surface ({ baseUrl(), apiKey: { get, set, clear }, lastSearch() })',
  );
  return a as DevIndexExtensionApi;
}

/** The extension's test surface with no API key stored (suites that start keyless, or set a key themselves). */
export async function keylessApi(): Promise<DevIndexExtensionApi> {
  const a = await api();
  await a.apiKey.clear();
  return a;
}

/** The requests the sandbox saw since the last clear (GET), or clears them (DELETE, resolves with none). */
export async function sandboxRequests(method: 'GET' | 'DELETE' = 'GET'): Promise<SeenRequest[]> {
  const r = await fetch(`${env('DEVINDEX_SANDBOX_URL')}/__sandbox/requests`, { method });
  assert.ok(r.ok, `sandbox ${method} /__sandbox/requests: ${r.status}`);
  return method === 'GET' ? ((await r.json()) as { requests: SeenRequest[] }).requests : [];
}

/** Probes every `stepMs` until `ok` holds; fails with `what` and the last value after `ms`. */
export async function until<T>(
  what: string,
  probe: () => T | Promise<T>,
  ok: (v: T) => boolean,
  ms = 20_000,
  stepMs = 200,
): Promise<T> {
  const deadline = Date.now() + ms;
  let last = await probe();
  while (!ok(last)) {
    if (Date.now() > deadline) assert.fail(`${what}: not reached after ${ms} ms (last: ${describe(last)})`);
    await new Promise((r) => setTimeout(r, stepMs));
    last = await probe();
  }
  return last;
}

function describe(v: unknown): string {
  try {
    return JSON.stringify(v)?.slice(0, 200) ?? String(v);
  } catch {
    return String(v);
  }
}

/** Job storage in memory, with the JSON round trip the editor's storage does (the agents and threads suites). */
export class MemoryStorage implements RecordStorage {
  private readonly map = new Map<string, string>();
  get<T>(key: string): T | undefined {
    const v = this.map.get(key);
    return v === undefined ? undefined : (JSON.parse(v) as T);
  }
  async update(key: string, value: unknown): Promise<void> {
    if (value === undefined) this.map.delete(key);
    else this.map.set(key, JSON.stringify(value));
  }
  keys(): readonly string[] {
    return [...this.map.keys()];
  }
}

/** The codicon id of a tree row's icon. */
export function iconId(node: vscode.TreeItem): string | undefined {
  return node.iconPath instanceof vscode.ThemeIcon ? node.iconPath.id : undefined;
}

/** A notification the agents feature showed, with its buttons and the button the "user" chose. */
export interface ShownNotification {
  severity: string;
  text: string;
  buttons: string[];
  chose?: string;
}

/**
 * The agents feature's notifications, replaced for a suite: `show` records each one in `shown` and answers with
 * `press` (which button to press for it; none dismisses it).
 */
export class FakeNotifications {
  readonly shown: ShownNotification[] = [];
  press: (text: string, buttons: string[]) => string | undefined = () => undefined;
  readonly show = async (
    severity: 'info' | 'warning' | 'error',
    text: string,
    buttons: string[],
  ): Promise<string | undefined> => {
    const chose = this.press(text, buttons);
    this.shown.push({ severity, text, buttons, chose });
    return chose;
  };
}

export { closedPort } from '../support/ports';
