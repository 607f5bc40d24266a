// The agent commands, once (issue 32 §4): id, title, icon, whether the palette shows it, and where the Agent Jobs
// view offers it. Registration (register.ts), the handler map (index.ts) and the manifest check
// (test/unit/security/testOnlyCommands.test.ts, against package.json's contributes) all derive from it.
// Editor-free: the activation bundle reads it without the feature.

/** Where a command shows in the Agent Jobs view: its title bar, every job row, or rows whose contextValue has a part. */
export interface MenuPlace {
  /** 'title': the view's title bar; 'job': every job row; otherwise a contextValue part (`;cancellable`). */
  on: 'title' | 'job' | string;
  group: string;
}

export interface AgentCommandSpec {
  key: string;
  id: `devIndex.agent.${string}`;
  title: string;
  /** A codicon name. */
  icon?: string;
  /** Hidden from the Command Palette: it needs the row it was invoked on. */
  rowOnly?: true;
  menus: readonly MenuPlace[];
}

export const JOBS_VIEW = 'devIndex.jobs';
export const COMMAND_CATEGORY = 'Developer Index';

export const AGENT_COMMANDS = [
  { key: 'start', id: 'devIndex.agent.start', title: 'Start Agent Job…', icon: 'add', menus: [{ on: 'title', group: 'navigation@1' }] },
  { key: 'cancel', id: 'devIndex.agent.cancel', title: 'Cancel Agent Job', icon: 'debug-stop', menus: [{ on: 'cancellable', group: 'inline@1' }, { on: 'cancellable', group: '1_run@1' }] },
  { key: 'refresh', id: 'devIndex.agent.refresh', title: 'Refresh Agent Jobs', icon: 'refresh', menus: [{ on: 'title', group: 'navigation@2' }] },
  { key: 'openResult', id: 'devIndex.agent.openResult', title: 'Open Result', icon: 'go-to-file', menus: [{ on: 'result', group: 'inline@2' }, { on: 'result', group: '2_open@1' }] },
  { key: 'openPartialResult', id: 'devIndex.agent.openPartialResult', title: 'Open Partial Result', icon: 'go-to-file', rowOnly: true, menus: [{ on: 'partial', group: '2_open@2' }] },
  { key: 'startAgain', id: 'devIndex.agent.startAgain', title: 'Start Again…', icon: 'debug-restart', rowOnly: true, menus: [{ on: 'job', group: '1_run@2' }] },
  { key: 'openSnapshot', id: 'devIndex.agent.openSnapshot', title: 'Open Snapshot', icon: 'file-code', rowOnly: true, menus: [{ on: 'snapshot', group: 'inline@1' }, { on: 'snapshot', group: '2_open@4' }] },
  { key: 'openTrace', id: 'devIndex.agent.openTrace', title: 'Open Trace as JSON', rowOnly: true, menus: [{ on: 'trace', group: '2_open@3' }] },
  { key: 'copyJobId', id: 'devIndex.agent.copyJobId', title: 'Copy Job ID', rowOnly: true, menus: [{ on: 'job', group: '3_edit@1' }] },
  { key: 'remove', id: 'devIndex.agent.remove', title: 'Remove from List', rowOnly: true, menus: [{ on: 'job', group: '3_edit@2' }] },
  { key: 'followUp', id: 'devIndex.agent.followUp', title: 'Ask a Follow-up…', icon: 'comment-discussion', menus: [{ on: 'followup', group: 'inline@3' }, { on: 'followup', group: '1_run@0' }] },
  { key: 'openAnswer', id: 'devIndex.agent.openAnswer', title: 'Open Answer', icon: 'open-preview', menus: [{ on: 'answer', group: 'inline@2' }, { on: 'answer', group: '2_open@0' }] },
  { key: 'approve', id: 'devIndex.agent.approve', title: 'Approve', icon: 'check', menus: [{ on: 'approvable', group: 'inline@0' }, { on: 'approvable', group: '0_approval@1' }] },
  { key: 'decline', id: 'devIndex.agent.decline', title: 'Decline', icon: 'close', menus: [{ on: 'approvable', group: 'inline@0' }, { on: 'approvable', group: '0_approval@2' }] },
] as const satisfies readonly AgentCommandSpec[];

type Table = (typeof AGENT_COMMANDS)[number];
export type AgentCommandKey = Table['key'];
export type AgentCommandId = Table['id'];
export const AGENT_COMMAND_IDS: readonly AgentCommandId[] = AGENT_COMMANDS.map((c) => c.id);
/** A command's id by its key (tree rows that run a command on click). */
export const AGENT_COMMAND = Object.fromEntries(AGENT_COMMANDS.map((c) => [c.key, c.id])) as { [C in Table as C['key']]: C['id'] };

/** Handlers by key, as a map by command id (what the editor registers). */
export type ById<H extends Record<AgentCommandKey, unknown>> = { [C in Table as C['id']]: H[C['key']] };

export function byId<H extends Record<AgentCommandKey, unknown>>(handlers: H): ById<H> {
  return Object.fromEntries(AGENT_COMMANDS.map((c) => [c.id, handlers[c.key]])) as ById<H>;
}

/** The `when` clause of a menu place, as package.json writes it. */
export function menuWhen(place: MenuPlace): string {
  if (place.on === 'title') return `view == ${JOBS_VIEW}`;
  if (place.on === 'job') return `view == ${JOBS_VIEW} && viewItem =~ /^job;/`;
  return `view == ${JOBS_VIEW} && viewItem =~ /;${place.on}(;|$)/`;
}
