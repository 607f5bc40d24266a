// One line per trace event for the tree: an icon per type, the summary (src/api/agent/agentTrace's, so the
// CLI and the tree say the same thing), its time, and what Open Snapshot needs. Unknown types are
// shown raw rather than hidden: the event list is "observed, may change" (addendum).
import { summarizeEvent as summaryText } from '../agentRun/agentTrace';
import type { TraceEvent } from '../api/agent/agentSchemas';
import type { AgentState, IconSpec } from './jobState';
import { stateFirstLabel, stateIcon, stateWords } from './jobState';

export interface SnapshotRef {
  snapshotId: string;
  kind: string;
  artifactId?: string;
  path?: string;
}

interface EventSummary {
  icon: IconSpec;
  text: string;
  /** Local wall-clock time, HH:MM:SS; empty when the event has no usable time. */
  time: string;
  /** Set on `artifact.updated` events that carry a snapshot id. */
  snapshot?: SnapshotRef;
}

export function formatTime(iso: string | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso.slice(0, 30);
  const p = (n: number): string => String(n).padStart(2, '0');
  return `${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

const TYPE_ICONS: Record<string, string> = {
  'run.started': 'play',
  'run.cancel_requested': 'debug-stop',
  'agent.started': 'hubot',
  'browser.session.started': 'browser',
  'browser.session.finished': 'browser',
  'progress.reported': 'info',
  'reasoning.summary': 'lightbulb',
  'assistant.message': 'comment',
  'tool_call.started': 'tools',
  'tool_call.finished': 'check',
};

const ARTIFACT_ICONS: Record<string, string> = {
  json: 'json',
  markdown: 'markdown',
  html: 'code',
  screenshot: 'device-camera',
  text: 'file-text',
};

const OUTCOME_STATES: Record<string, AgentState> = {
  succeeded: 'completed',
  failed: 'failed',
  cancelled: 'cancelled',
  refused: 'refused',
  credit_limit_reached: 'credit_limit_reached',
};

function eventIcon(ev: TraceEvent): IconSpec {
  switch (ev.type) {
    case 'run.finished':
    case 'agent.finished': {
      if (ev.error?.code === 'parent_finished') return stateIcon('parent_finished');
      const state = ev.outcome !== undefined ? OUTCOME_STATES[ev.outcome] : undefined;
      return state ? stateIcon(state) : { id: ev.type === 'run.finished' ? 'circle-large-outline' : 'hubot' };
    }
    case 'artifact.updated':
      return { id: ARTIFACT_ICONS[ev.artifact?.kind ?? ''] ?? 'file' };
    case 'error.occurred':
      return { id: 'warning', color: 'list.warningForeground' };
    default:
      return { id: TYPE_ICONS[ev.type] ?? 'question' };
  }
}

/** One tree row: an event, or a tool call's start and finish merged (both stay in the trace JSON). */
interface RowEvents {
  event: TraceEvent;
  finished?: TraceEvent;
}

/**
 * Pairs each `tool_call.started` with its `tool_call.finished` (same toolCallId) into one row at the
 * start's place; everything else is a row of its own. A finish without a start keeps its own row.
 */
export function mergeToolCalls(events: readonly TraceEvent[]): RowEvents[] {
  const finishes = new Map<string, TraceEvent>();
  for (const e of events) if (e.type === 'tool_call.finished' && e.toolCallId) finishes.set(e.toolCallId, e);
  const paired = new Set<TraceEvent>();
  const rows: RowEvents[] = [];
  for (const e of events) {
    if (e.type === 'tool_call.started' && e.toolCallId && finishes.has(e.toolCallId)) {
      const finished = finishes.get(e.toolCallId)!;
      paired.add(finished);
      rows.push({ event: e, finished });
    } else if (!paired.has(e)) rows.push({ event: e });
  }
  return rows;
}

function seconds(ms: number): string {
  return ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`;
}

export function eventRow(ev: TraceEvent, finished?: TraceEvent): EventSummary {
  if (ev.type === 'tool_call.started' && finished) {
    const ms = Date.parse(finished.occurredAt ?? '') - Date.parse(ev.occurredAt ?? '');
    const took = Number.isFinite(ms) && ms >= 0 ? ` · ${seconds(ms)}` : '';
    return {
      icon: { id: 'check' },
      text: `tool ${ev.toolName ?? finished.toolName ?? '?'}${took}`,
      time: formatTime(ev.occurredAt),
    };
  }
  const out: EventSummary = { icon: eventIcon(ev), text: summaryText(ev), time: formatTime(ev.occurredAt) };
  const a = ev.type === 'artifact.updated' ? ev.artifact : undefined;
  if (a?.snapshotId) out.snapshot = { snapshotId: a.snapshotId, kind: a.kind, artifactId: a.artifactId, path: a.path };
  return out;
}

/** What a trace row's event did, in a word or two, for the start of its accessible name. */
export function eventState(ev: TraceEvent, finished?: TraceEvent): string {
  switch (ev.type) {
    case 'tool_call.started':
      return finished ? (finished.error ? 'failed' : 'done') : 'started';
    case 'tool_call.finished':
      return ev.error ? 'failed' : 'done';
    case 'run.finished':
    case 'agent.finished': {
      if (ev.error?.code === 'parent_finished') return stateWords('parent_finished');
      const state = ev.outcome !== undefined ? OUTCOME_STATES[ev.outcome] : undefined;
      return state ? stateWords(state) : 'finished';
    }
    case 'run.started':
    case 'agent.started':
    case 'browser.session.started':
      return 'started';
    case 'browser.session.finished':
      return 'finished';
    case 'run.cancel_requested':
      return 'cancel requested';
    case 'artifact.updated':
      return 'updated';
    case 'error.occurred':
      return 'error';
    default:
      return 'reported';
  }
}

/** A trace row's accessible name, state first: `Done: tool navigate · 1.2 s, at 12:00:03`. */
export function eventAccessibleLabel(ev: TraceEvent, finished?: TraceEvent): string {
  const row = eventRow(ev, finished);
  return stateFirstLabel([eventState(ev, finished), ...(row.time ? [`at ${row.time}`] : [])].join(' · '), row.text);
}
