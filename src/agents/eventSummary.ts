// One line per trace event for the tree: an icon per type, a summary, its time. Unknown types are
// shown raw rather than hidden: the event list is "observed, may change" (addendum).
import type { AgentTraceEvent } from './agentBackend';
import type { IconSpec } from './jobState';
import { stateIcon } from './jobState';
import { eventError, numberField, objectField, stringField } from './traceModel';

export interface EventSummary {
  icon: IconSpec;
  text: string;
  /** Local wall-clock time, HH:MM:SS. */
  time: string;
  /** Set on `artifact.updated`: what Open Snapshot needs. */
  snapshot?: { snapshotId: string; kind: string; artifactId?: string; path?: string };
  known: boolean;
}

const ONE_LINE_MAX = 160;

export function oneLine(s: string, max = ONE_LINE_MAX): string {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length <= max ? t : `${t.slice(0, max - 1)}…`;
}

export function formatTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso ? oneLine(iso, 30) : '';
  const p = (n: number): string => String(n).padStart(2, '0');
  return `${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

function seconds(ms: number | undefined): string {
  return ms === undefined ? '' : ` after ${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
}

const ARTIFACT_ICONS: Record<string, string> = {
  json: 'json',
  markdown: 'markdown',
  html: 'code',
  screenshot: 'device-camera',
  text: 'file-text',
};

const OUTCOME_ICON_STATES: Record<string, Parameters<typeof stateIcon>[0]> = {
  succeeded: 'completed',
  failed: 'failed',
  cancelled: 'cancelled',
  refused: 'refused',
  credit_limit_reached: 'credit_limit_reached',
};

function errorText(ev: AgentTraceEvent): string {
  const e = eventError(ev);
  if (!e) return '';
  const bits = [e.code ?? 'error'];
  if (e.source) bits.push(`from ${e.source}`);
  bits.push(e.retryable === true ? 'retryable' : e.retryable === false ? 'not retryable' : 'retryable unknown');
  return `${bits.join(', ')}${e.message ? `: ${e.message}` : ''}`;
}

export function summarizeEvent(ev: AgentTraceEvent): EventSummary {
  const time = formatTime(ev.occurredAt);
  const s = (text: string, id: string, color?: string): EventSummary => ({ icon: { id, color }, text: oneLine(text), time, known: true });
  switch (ev.type) {
    case 'run.started':
      return s('Run started', 'play');
    case 'run.cancel_requested': {
      const reason = stringField(ev, 'reason');
      return s(`Cancel requested${reason ? `: ${reason}` : ''}`, 'debug-stop');
    }
    case 'run.finished': {
      const outcome = stringField(ev, 'outcome') ?? 'unknown outcome';
      const err = errorText(ev);
      const icon = OUTCOME_ICON_STATES[outcome] ? stateIcon(OUTCOME_ICON_STATES[outcome]) : { id: 'circle-large-outline' };
      return { ...s(`Run finished: ${outcome}${err ? ` (${err})` : ''}`, icon.id, icon.color) };
    }
    case 'agent.started':
      return s('Agent started', 'hubot');
    case 'agent.finished': {
      const outcome = stringField(ev, 'outcome') ?? 'finished';
      const err = errorText(ev);
      const parentFinished = eventError(ev)?.code === 'parent_finished';
      const icon = parentFinished ? stateIcon('parent_finished') : OUTCOME_ICON_STATES[outcome] ? stateIcon(OUTCOME_ICON_STATES[outcome]) : { id: 'hubot' };
      return s(`Agent finished: ${outcome}${seconds(numberField(ev, 'durationMs'))}${err ? ` (${err})` : ''}`, icon.id, icon.color);
    }
    case 'browser.session.started':
      return s(`Browser session started${stringField(ev, 'sessionId') ? ` ${stringField(ev, 'sessionId')}` : ''}`, 'browser');
    case 'browser.session.finished':
      return s(`Browser session finished${seconds(numberField(ev, 'durationMs'))}`, 'browser');
    case 'progress.reported': {
      const phase = stringField(ev, 'phase');
      const message = stringField(ev, 'message') ?? '';
      return s(`${phase ? `[${phase}] ` : ''}${message || 'Progress'}`, 'info');
    }
    case 'reasoning.summary':
      return s(stringField(ev, 'text') ?? 'Reasoning', 'lightbulb');
    case 'tool_call.started':
      return s(`Tool ${stringField(ev, 'toolName') ?? '(unnamed)'} started`, 'tools');
    case 'tool_call.finished':
      return s(`Tool ${stringField(ev, 'toolName') ?? '(unnamed)'} finished`, 'check');
    case 'artifact.updated': {
      const a = objectField(ev, 'artifact') ?? {};
      const str = (k: string): string | undefined => (typeof a[k] === 'string' ? (a[k] as string) : undefined);
      const kind = str('kind') ?? 'unknown';
      const change = str('change') ?? 'update';
      const name = str('path') ?? str('artifactId') ?? 'artifact';
      const items = typeof a.itemCount === 'number' ? `, ${a.itemCount} items` : '';
      const fields = Array.isArray(a.changedFields) && a.changedFields.length
        ? `, fields ${a.changedFields.filter((f) => typeof f === 'string').join(', ')}` : '';
      const snapshotId = str('snapshotId');
      const summary = s(`Artifact ${name} (${kind}) ${change}${items}${fields}`, ARTIFACT_ICONS[kind] ?? 'file');
      return snapshotId ? { ...summary, snapshot: { snapshotId, kind, artifactId: str('artifactId'), path: str('path') } } : summary;
    }
    case 'error.occurred':
      return s(`Error ${errorText(ev) || '(no details)'}`, 'warning', 'list.warningForeground');
    default:
      return { icon: { id: 'question' }, text: oneLine(`${String(ev.type)} ${rawFields(ev)}`), time, known: false };
  }
}

const COMMON_FIELDS = new Set(['schemaVersion', 'eventId', 'runId', 'occurredAt', 'producerSequence', 'agent', 'type']);

/** The type-specific part of an event as compact JSON, for types this client does not know. */
export function rawFields(ev: object): string {
  const rest: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(ev)) if (!COMMON_FIELDS.has(k)) rest[k] = v;
  try {
    return JSON.stringify(rest);
  } catch {
    return '{…}';
  }
}
