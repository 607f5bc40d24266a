// A DevIndexClient stand-in for agent and CLI tests without a network: each request is answered by
// `answer` (an Error is thrown as the failure), parsed with the request's own schema, and recorded.
import { parse } from 'zod/mini';
import type { DevIndexClient, RequestSpec } from '../../src/api/client';

export function fakeClient(
  answer: (spec: RequestSpec<unknown>) => unknown,
  baseUrl = 'https://api.example.com',
  origin?: string,
) {
  const seen: Array<RequestSpec<unknown>> = [];
  const client = {
    settings: { baseUrl, origin },
    async request<T>(spec: RequestSpec<T>): Promise<T> {
      seen.push(spec as RequestSpec<unknown>);
      const r = answer(spec as RequestSpec<unknown>);
      if (r instanceof Error) throw r;
      return parse(spec.schema, r);
    },
    async close() {},
  } as unknown as DevIndexClient;
  return { client, seen };
}
