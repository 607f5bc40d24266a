// Shared by the sandbox HTTP tests: the fixture corpus path and tiny request helpers over fetch.
import { join } from 'node:path';
import { findRepoRoot } from '../../sandbox/serverParts';

export const repoRoot = (): string => {
  const root = findRepoRoot(__dirname);
  if (!root) throw new Error('repository root not found');
  return root;
};
export const smallCorpus = (): string => join(repoRoot(), 'test', 'fixtures', 'corpus-small');

// The tests read arbitrary JSON shapes (success bodies, error bodies, fault bodies) and assert on them.
export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
}

async function toReply(r: Response): Promise<Reply> {
  const text = await r.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: r.status, headers: r.headers, text, json };
}

export type Query = Array<[string, string]> | Record<string, string | number | boolean>;

export function qs(q: Query): string {
  const entries = Array.isArray(q) ? q : Object.entries(q).map(([k, v]) => [k, String(v)] as [string, string]);
  return new URLSearchParams(entries).toString();
}

export async function get(base: string, path: string, q?: Query, headers: Record<string, string> = {}): Promise<Reply> {
  const url = `${base}${path}${q ? `?${qs(q)}` : ''}`;
  return toReply(await fetch(url, { headers, signal: AbortSignal.timeout(10_000) }));
}

export async function post(
  base: string,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Reply> {
  return toReply(
    await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    }),
  );
}

export async function del(base: string, path: string): Promise<Reply> {
  return toReply(await fetch(`${base}${path}`, { method: 'DELETE', signal: AbortSignal.timeout(10_000) }));
}

export const ids = (r: Reply): string[] => (r.json.results as Array<{ id: string }>).map((x) => x.id).sort();

/**
 * One request with an optional bearer key and JSON body, as the agent endpoints take them: the status,
 * the body parsed (undefined when it is not JSON) and its text. Times out after 5 s.
 */
export async function keyedCall(
  base: string,
  method: string,
  path: string,
  body: unknown,
  key: string | null,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
): Promise<{ status: number; json: any; text: string }> {
  const r = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(key ? { authorization: `Bearer ${key}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(5000),
  });
  const text = await r.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: r.status, json, text };
}
