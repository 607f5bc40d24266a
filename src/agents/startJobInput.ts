// The Start Agent Job… flow without the editor: one multi-step input (prompt, optional URLs, credit
// ceiling, model, effort, what the run gives back, paid tool calls) with Back on every step after the first. Each step is validated with a
// message naming the field and the bound, and a draft keeps everything the user typed when a step is
// cancelled, when Back is pressed, or when the service rejects the submission. The bounds are the
// submission schema's (src/api/agent/submitSchema.ts); the words are the input boxes' own.
import {
  AGENT_EFFORTS,
  AGENT_MODELS,
  DEFAULT_AGENT_MODEL,
  isAgentEffort,
  isAgentMode,
  PROMPT_MAX_LENGTH,
  RETIRED_AGENT_MODELS,
} from '../api/agent/agentConstants';
import type { AgentSubmitParams } from './agentBackend';
import { isHttpUrl, SUBMIT_SHAPE } from '../api/agent/submitSchema';
import { grouped } from '../api/grouped';

export const TOTAL_STEPS = 7;

export interface StartDraft {
  prompt: string;
  urls: string;
  maxCredits: string;
  model: string;
  effort: string;
  mode: string;
  paid: string;
}

export function emptyDraft(): StartDraft {
  return { prompt: '', urls: '', maxCredits: '', model: '', effort: '', mode: '', paid: '' };
}

/** A draft filled from an earlier request (Start Again…), optionally with a higher credit ceiling. */
export function draftFrom(r: {
  prompt: string;
  urls?: string[];
  maxCredits?: number;
  model?: string;
  effort?: string;
  mode?: string;
}): StartDraft {
  return {
    prompt: r.prompt,
    urls: (r.urls ?? []).join(', '),
    maxCredits: r.maxCredits !== undefined ? String(r.maxCredits) : '',
    model: r.model ?? '',
    effort: r.effort ?? '',
    mode: isAgentMode(r.mode) ? r.mode : '',
    paid: '',
  };
}

export function validatePrompt(v: string): string | undefined {
  if (v.trim().length === 0) return 'The prompt must not be empty.';
  if (v.length > PROMPT_MAX_LENGTH) {
    return `The prompt is ${grouped(v.length)} characters; the maximum is ${grouped(PROMPT_MAX_LENGTH)}.`;
  }
  return undefined;
}

export function parseUrls(v: string): { ok: true; urls: string[] } | { ok: false; message: string } {
  const parts = v
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  for (const [i, p] of parts.entries()) {
    if (!isHttpUrl(p)) {
      const shown = p.length > 60 ? `${p.slice(0, 57)}…` : p;
      return {
        ok: false,
        message: `URL ${i + 1} "${shown}" is not an absolute http(s) URL (for example https://example.com/page).`,
      };
    }
  }
  return { ok: true, urls: parts };
}

export function parseMaxCredits(
  v: string,
  fallback: number,
): { ok: true; value: number } | { ok: false; message: string } {
  const t = v.trim();
  if (t === '') return { ok: true, value: fallback };
  const n = Number(t);
  if (!SUBMIT_SHAPE.maxCredits.safeParse(n).success)
    return { ok: false, message: `The credit ceiling must be a number greater than 0; got "${t.slice(0, 30)}".` };
  return { ok: true, value: n };
}

/** A text step. */
export interface InputStep {
  type?: 'text';
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

export interface PickItem {
  label: string;
  description?: string;
  value: string;
}

/** A choice step (model, effort); `value` is the current choice. */
export interface PickStep {
  type: 'pick';
  step: number;
  totalSteps: number;
  title: string;
  placeHolder: string;
  items: PickItem[];
  value: string;
  initialError?: string;
}

export const BACK = Symbol('back');

/** One step; resolves with the answer, BACK (the step's Back button), or undefined when cancelled. */
export type AskInput = (step: InputStep | PickStep) => Promise<string | typeof BACK | undefined>;

export type StartField = 'prompt' | 'urls' | 'maxCredits' | 'model' | 'effort' | 'mode' | 'paid';

/** The models offered: the current one, the retired aliases (said so), then any from the setting. */
export function modelItems(extraModels: readonly string[] = []): PickItem[] {
  const items: PickItem[] = AGENT_MODELS.map((m) => ({
    label: m,
    value: m,
    description:
      m === DEFAULT_AGENT_MODEL
        ? 'current model (the service default)'
        : RETIRED_AGENT_MODELS.has(m)
          ? `retired name; runs on ${DEFAULT_AGENT_MODEL}`
          : undefined,
  }));
  for (const m of extraModels)
    if (m && !items.some((i) => i.value === m))
      items.push({ label: m, value: m, description: 'from devIndex.agent.extraModels' });
  return items;
}

export function effortItems(): PickItem[] {
  return [
    { label: 'service default', value: '', description: 'let the service choose' },
    ...AGENT_EFFORTS.map((e) => ({
      label: e,
      value: e,
      description:
        e === 'low' ? 'fewer findings, fewer credits' : e === 'high' ? 'more findings, more credits' : undefined,
    })),
  ];
}

/** What the run gives back: an answer in words (`chat`), data (`extract`), or what the service does by default (left out). */
export function modeItems(): PickItem[] {
  return [
    {
      label: 'Ask (an answer in words)',
      value: 'chat',
      description: 'a markdown answer, with follow-ups in its thread',
    },
    { label: 'Collect data (JSON)', value: 'extract', description: 'data, shaped by a schema when one is given' },
    { label: "The service's default", value: '', description: 'let the service choose' },
  ];
}

/**
 * Paid tool calls (an optional step; off unless chosen): the exchange settings each choice sends. Any
 * of them turns paid calls on; the client adds `enabled: true` and checks requireApproval's need of
 * an Ask run before anything is sent.
 */
export const PAID_CHOICES: Record<string, NonNullable<AgentSubmitParams['exchange']> | undefined> = {
  '': undefined,
  on: { onTermsRequired: 'skip' },
  askTerms: { onTermsRequired: 'ask' },
  approve: { requireApproval: true, onTermsRequired: 'ask' },
};

export function paidItems(): PickItem[] {
  return [
    { label: 'No paid tool calls', value: '', description: "the service's default" },
    {
      label: 'Allow paid tool calls',
      value: 'on',
      description: 'providers whose data terms are not accepted are skipped',
    },
    {
      label: "Allow paid tool calls; ask me about providers' terms",
      value: 'askTerms',
      description: 'the run waits for you to read and accept them',
    },
    {
      label: 'Allow paid tool calls, each after my approval',
      value: 'approve',
      description: 'an Ask run only: it waits for you before each call',
    },
  ];
}

/**
 * Runs the steps with the draft's values pre-filled and writes each answer back to the draft as it is
 * given. Back returns to the previous step with its value kept. `errors` puts a message on a step
 * (a field the service rejected), and the flow starts at the first such step.
 */
export async function askStartJob(
  ask: AskInput,
  draft: StartDraft,
  defaultMaxCredits: number,
  errors: Partial<Record<StartField, string>> = {},
  extraModels: readonly string[] = [],
): Promise<AgentSubmitParams | undefined> {
  const title = 'Start Agent Job';
  const order: StartField[] = ['prompt', 'urls', 'maxCredits', 'model', 'effort', 'mode', 'paid'];
  const first = order.findIndex((f) => errors[f] !== undefined);
  const steps: Array<() => InputStep | PickStep> = [
    () => ({
      step: 1,
      totalSteps: TOTAL_STEPS,
      title,
      prompt: `What should the agent do? (at most ${grouped(PROMPT_MAX_LENGTH)} characters)`,
      value: draft.prompt,
      placeHolder: 'e.g. Find the rate limits of the three most popular HTTP client libraries',
      initialError: errors.prompt,
      validate: validatePrompt,
    }),
    () => ({
      step: 2,
      totalSteps: TOTAL_STEPS,
      title,
      prompt: 'Pages to start from (optional): absolute http(s) URLs separated by commas',
      value: draft.urls,
      placeHolder: 'https://example.com/docs, https://example.org/pricing',
      initialError: errors.urls,
      validate: (v) => {
        const r = parseUrls(v);
        return r.ok ? undefined : r.message;
      },
    }),
    () => ({
      step: 3,
      totalSteps: TOTAL_STEPS,
      title,
      prompt: `Credit ceiling: the run stops when it has used this many credits. Empty for the default, ${defaultMaxCredits}.`,
      value: draft.maxCredits,
      placeHolder: String(defaultMaxCredits),
      initialError: errors.maxCredits,
      validate: (v) => {
        const r = parseMaxCredits(v, defaultMaxCredits);
        return r.ok ? undefined : r.message;
      },
    }),
    () => ({
      type: 'pick',
      step: 4,
      totalSteps: TOTAL_STEPS,
      title,
      placeHolder: 'Model',
      items: modelItems(extraModels),
      value: draft.model || DEFAULT_AGENT_MODEL,
      initialError: errors.model,
    }),
    () => ({
      type: 'pick',
      step: 5,
      totalSteps: TOTAL_STEPS,
      title,
      placeHolder: 'Effort: how thorough the run is',
      items: effortItems(),
      value: draft.effort,
      initialError: errors.effort,
    }),
    () => ({
      type: 'pick',
      step: 6,
      totalSteps: TOTAL_STEPS,
      title,
      placeHolder: 'What should the run give back?',
      items: modeItems(),
      value: draft.mode,
      initialError: errors.mode,
    }),
    () => ({
      type: 'pick',
      step: 7,
      totalSteps: TOTAL_STEPS,
      title,
      placeHolder: 'Paid tool calls (optional): may the run call paid providers?',
      items: paidItems(),
      value: draft.paid,
      initialError: errors.paid,
    }),
  ];
  for (let i = first < 0 ? 0 : first; i < steps.length;) {
    const answer = await ask(steps[i]!());
    if (answer === undefined) return undefined;
    if (answer === BACK) {
      i = Math.max(0, i - 1);
      continue;
    }
    draft[order[i]!] = answer;
    i++;
  }
  // The boxes validate as the user types; checking again keeps this function safe for any `ask`.
  const u = parseUrls(draft.urls);
  const c = parseMaxCredits(draft.maxCredits, defaultMaxCredits);
  const again: Partial<Record<StartField, string>> = {
    prompt: validatePrompt(draft.prompt),
    urls: u.ok ? undefined : u.message,
    maxCredits: c.ok ? undefined : c.message,
  };
  if (!u.ok || !c.ok || again.prompt) return askStartJob(ask, draft, defaultMaxCredits, again, extraModels);
  const effort = isAgentEffort(draft.effort) ? draft.effort : undefined;
  const mode = isAgentMode(draft.mode) ? draft.mode : undefined;
  const exchange = PAID_CHOICES[draft.paid];
  return {
    prompt: draft.prompt,
    ...(u.urls.length ? { urls: u.urls } : {}),
    maxCredits: c.value,
    ...(draft.model ? { model: draft.model } : {}),
    ...(effort ? { effort } : {}),
    ...(mode ? { mode } : {}),
    ...(exchange ? { exchange: { ...exchange } } : {}),
  };
}

/** Which step a service or client validation error belongs to, from its issues' field names. */
export function fieldOfIssues(
  issues: ReadonlyArray<{ field: string; message: string }> | undefined,
): Partial<Record<StartField, string>> {
  const out: Partial<Record<StartField, string>> = {};
  for (const i of issues ?? []) {
    const f = i.field.split(/[.[]/)[0];
    if (f === 'prompt' || f === 'urls' || f === 'maxCredits' || f === 'model' || f === 'effort' || f === 'mode')
      out[f] ??= i.message;
    if (f === 'exchange') out.paid ??= i.message;
  }
  return out;
}
