// The Start Agent Job… flow without the editor: three inputs (prompt, optional URLs, credit ceiling),
// each validated with a message naming the field and the bound, and a draft that keeps everything
// the user typed when a step is cancelled or the service rejects the submission.
import type { AgentSubmitParams } from './agentBackend';

export const PROMPT_MAX_LENGTH = 10_000;

export interface StartDraft { prompt: string; urls: string; maxCredits: string }

export function emptyDraft(): StartDraft {
  return { prompt: '', urls: '', maxCredits: '' };
}

export function validatePrompt(v: string): string | undefined {
  if (v.trim().length === 0) return 'The prompt must not be empty.';
  if (v.length > PROMPT_MAX_LENGTH) {
    return `The prompt is ${v.length.toLocaleString('en-US')} characters; the maximum is ${PROMPT_MAX_LENGTH.toLocaleString('en-US')}.`;
  }
  return undefined;
}

export function parseUrls(v: string): { ok: true; urls: string[] } | { ok: false; message: string } {
  const parts = v.split(',').map((s) => s.trim()).filter((s) => s.length > 0);
  for (const [i, p] of parts.entries()) {
    let u: URL | undefined;
    try { u = new URL(p); } catch { u = undefined; }
    if (!u || (u.protocol !== 'http:' && u.protocol !== 'https:') || !u.hostname) {
      const shown = p.length > 60 ? `${p.slice(0, 57)}…` : p;
      return { ok: false, message: `URL ${i + 1} "${shown}" is not an absolute http(s) URL (for example https://example.com/page).` };
    }
  }
  return { ok: true, urls: parts };
}

export function parseMaxCredits(v: string, fallback: number): { ok: true; value: number } | { ok: false; message: string } {
  const t = v.trim();
  if (t === '') return { ok: true, value: fallback };
  const n = Number(t);
  if (!Number.isFinite(n) || n <= 0) return { ok: false, message: `The credit ceiling must be a number greater than 0; got "${t.slice(0, 30)}".` };
  return { ok: true, value: n };
}

export interface InputStep {
  step: number;
  totalSteps: number;
  title: string;
  prompt: string;
  value: string;
  placeHolder?: string;
  /** Shown at once, e.g. the service's reason for rejecting the last submission. */
  initialError?: string;
  validate(v: string): string | undefined;
}

/** One input box; resolves undefined when the user cancels. */
export type AskInput = (step: InputStep) => Promise<string | undefined>;

export type StartField = 'prompt' | 'urls' | 'maxCredits';

/**
 * Runs the three steps with the draft's values pre-filled and writes each answer back to the draft
 * as it is given. `errors` puts a message on a step (a field the service rejected).
 */
export async function askStartJob(
  ask: AskInput, draft: StartDraft, defaultMaxCredits: number, errors: Partial<Record<StartField, string>> = {},
): Promise<AgentSubmitParams | undefined> {
  const title = 'Start Agent Job';
  const prompt = await ask({
    step: 1, totalSteps: 3, title, prompt: `What should the agent do? (at most ${PROMPT_MAX_LENGTH.toLocaleString('en-US')} characters)`,
    value: draft.prompt, placeHolder: 'e.g. Find the rate limits of the three most popular HTTP client libraries', initialError: errors.prompt,
    validate: validatePrompt,
  });
  if (prompt === undefined) return undefined;
  draft.prompt = prompt;
  const urls = await ask({
    step: 2, totalSteps: 3, title, prompt: 'Pages to start from (optional): absolute http(s) URLs separated by commas',
    value: draft.urls, placeHolder: 'https://example.com/docs, https://example.org/pricing', initialError: errors.urls,
    validate: (v) => { const r = parseUrls(v); return r.ok ? undefined : r.message; },
  });
  if (urls === undefined) return undefined;
  draft.urls = urls;
  const credits = await ask({
    step: 3, totalSteps: 3, title, prompt: `Credit ceiling (maxCredits): the run stops when it reaches it. Empty for the default, ${defaultMaxCredits}.`,
    value: draft.maxCredits, placeHolder: String(defaultMaxCredits), initialError: errors.maxCredits,
    validate: (v) => { const r = parseMaxCredits(v, defaultMaxCredits); return r.ok ? undefined : r.message; },
  });
  if (credits === undefined) return undefined;
  draft.maxCredits = credits;
  // The boxes validate as the user types; checking again keeps this function safe for any `ask`.
  const u = parseUrls(urls);
  const c = parseMaxCredits(credits, defaultMaxCredits);
  const problem = validatePrompt(prompt) ?? (u.ok ? undefined : u.message) ?? (c.ok ? undefined : c.message);
  if (problem || !u.ok || !c.ok) return askStartJob(ask, draft, defaultMaxCredits, {
    prompt: validatePrompt(prompt), urls: u.ok ? undefined : u.message, maxCredits: c.ok ? undefined : c.message,
  });
  return { prompt, ...(u.urls.length ? { urls: u.urls } : {}), maxCredits: c.value };
}

/** Which step a service or client validation error belongs to, from its issues' field names. */
export function fieldOfIssues(issues: ReadonlyArray<{ field: string; message: string }> | undefined): Partial<Record<StartField, string>> {
  const out: Partial<Record<StartField, string>> = {};
  for (const i of issues ?? []) {
    const f = i.field.split(/[.[]/)[0];
    if (f === 'prompt' || f === 'urls' || f === 'maxCredits') out[f] ??= i.message;
  }
  return out;
}
