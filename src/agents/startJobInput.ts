// The Start Agent Job… flow without the editor: seven steps (prompt, URLs, credit ceiling, model, effort, what the run
// gives back, paid calls) with Back, a draft that keeps what was typed, and each step checked as it is typed by the
// submission schema's own field check (src/api/agent/submitSchema.ts), so its messages are the schema's.
import {
  AGENT_EFFORTS,
  AGENT_MODELS,
  DEFAULT_AGENT_MODEL,
  isAgentEffort,
  isAgentMode,
  PROMPT_MAX_LENGTH,
  RETIRED_AGENT_MODELS,
} from '../api/agent/agentConstants';
import { type AgentSubmitParams, fieldIssue } from '../api/agent/submitSchema';
import { grouped } from '../words/duration';

const TOTAL_STEPS = 7;

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

/** The URLs typed in the second step: comma-separated, blanks left out. */
export function urlsOf(text: string): string[] {
  return text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/** The credit ceiling typed in the third step: the default when empty, the text itself when it is not a number. */
export function maxCreditsOf(text: string, fallback: number): unknown {
  const t = text.trim();
  if (t === '') return fallback;
  const n = Number(t);
  return Number.isNaN(n) ? t : n;
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

interface PickItem {
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

type StartField = 'prompt' | 'urls' | 'maxCredits' | 'model' | 'effort' | 'mode' | 'paid';

/** The models offered: the current one, the retired aliases (said so), then any from the setting. */
function modelItems(extraModels: readonly string[] = []): PickItem[] {
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

function effortItems(): PickItem[] {
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
function modeItems(): PickItem[] {
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
const PAID_CHOICES: Record<string, NonNullable<AgentSubmitParams['exchange']> | undefined> = {
  '': undefined,
  on: { onTermsRequired: 'skip' },
  askTerms: { onTermsRequired: 'ask' },
  approve: { requireApproval: true, onTermsRequired: 'ask' },
};

function paidItems(): PickItem[] {
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
      validate: (v) => fieldIssue('prompt', v),
    }),
    () => ({
      step: 2,
      totalSteps: TOTAL_STEPS,
      title,
      prompt: 'Pages to start from (optional): absolute http(s) URLs separated by commas',
      value: draft.urls,
      placeHolder: 'https://example.com/docs, https://example.org/pricing',
      initialError: errors.urls,
      validate: (v) => fieldIssue('urls', urlsOf(v)),
    }),
    () => ({
      step: 3,
      totalSteps: TOTAL_STEPS,
      title,
      prompt: `Credit ceiling: the run stops when it has used this many credits. Empty for the default, ${defaultMaxCredits}.`,
      value: draft.maxCredits,
      placeHolder: String(defaultMaxCredits),
      initialError: errors.maxCredits,
      validate: (v) => fieldIssue('maxCredits', maxCreditsOf(v, defaultMaxCredits)),
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
  // Built, not checked: the client checks the submission (once), and a field it refuses comes back onto its step.
  const urls = urlsOf(draft.urls);
  const effort = isAgentEffort(draft.effort) ? draft.effort : undefined;
  const mode = isAgentMode(draft.mode) ? draft.mode : undefined;
  const exchange = PAID_CHOICES[draft.paid];
  return {
    prompt: draft.prompt,
    ...(urls.length ? { urls } : {}),
    maxCredits: maxCreditsOf(draft.maxCredits, defaultMaxCredits) as number,
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
