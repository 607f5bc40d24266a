// The agent commands' titles, icons, palette and places in the Agent Jobs view, by the keys of agentCommandIds.ts
// (the compiler holds the two to the same keys); package.json's contributes match it. Editor-free; not in the
// activation bundle, which needs only the ids.
import { AGENT_COMMAND_KEYS, type AgentCommandKey, agentCommandId, JOBS_VIEW } from './agentCommandIds';

export type { AgentCommandId, AgentCommandKey } from './agentCommandIds';

/** Where a command shows in the Agent Jobs view: its title bar, every job row, or rows whose contextValue has a part. */
interface MenuPlace {
  /** 'title': the view's title bar; 'job': every job row; otherwise a contextValue part (`;cancellable`). */
  on: 'title' | 'job' | string;
  group: string;
}

interface AgentCommandSpec {
  title: string;
  /** A codicon name. */
  icon?: string;
  /** Hidden from the Command Palette: it needs the row it was invoked on. */
  rowOnly?: true;
  menus: readonly MenuPlace[];
}

export const COMMAND_CATEGORY = 'Developer Index';

/** Shown inline on the rows whose contextValue has `on`, at `inline`, and in those rows' context menu at `group`. */
function inlineAnd(on: string, inline: number, group: string): readonly MenuPlace[] {
  return [
    { on, group: `inline@${inline}` },
    { on, group },
  ];
}

/** Each command's title, icon and places, by the key its id is made of (agentCommandIds.ts). */
const AGENT_COMMAND_SPECS = {
  start: { title: 'Start Agent Job…', icon: 'add', menus: [{ on: 'title', group: 'navigation@1' }] },
  cancel: { title: 'Cancel Agent Job', icon: 'debug-stop', menus: inlineAnd('cancellable', 1, '1_run@1') },
  refresh: { title: 'Refresh Agent Jobs', icon: 'refresh', menus: [{ on: 'title', group: 'navigation@2' }] },
  openResult: { title: 'Open Result', icon: 'go-to-file', menus: inlineAnd('result', 2, '2_open@1') },
  openPartialResult: {
    title: 'Open Partial Result',
    icon: 'go-to-file',
    rowOnly: true,
    menus: [{ on: 'partial', group: '2_open@2' }],
  },
  startAgain: { title: 'Start Again…', icon: 'debug-restart', rowOnly: true, menus: [{ on: 'job', group: '1_run@2' }] },
  openSnapshot: {
    title: 'Open Snapshot',
    icon: 'file-code',
    rowOnly: true,
    menus: inlineAnd('snapshot', 1, '2_open@4'),
  },
  openTrace: { title: 'Open Trace as JSON', rowOnly: true, menus: [{ on: 'trace', group: '2_open@3' }] },
  copyJobId: { title: 'Copy Job ID', rowOnly: true, menus: [{ on: 'job', group: '3_edit@1' }] },
  remove: { title: 'Remove from List', rowOnly: true, menus: [{ on: 'job', group: '3_edit@2' }] },
  followUp: { title: 'Ask a Follow-up…', icon: 'comment-discussion', menus: inlineAnd('followup', 3, '1_run@0') },
  openAnswer: { title: 'Open Answer', icon: 'open-preview', menus: inlineAnd('answer', 2, '2_open@0') },
  approve: { title: 'Approve', icon: 'check', menus: inlineAnd('approvable', 0, '0_approval@1') },
  decline: { title: 'Decline', icon: 'close', menus: inlineAnd('approvable', 0, '0_approval@2') },
} as const satisfies Record<AgentCommandKey, AgentCommandSpec>;

/** Every command with its id, in the order of the keys. */
export const AGENT_COMMANDS = AGENT_COMMAND_KEYS.map((key) => ({
  key,
  id: agentCommandId(key),
  ...(AGENT_COMMAND_SPECS[key] as AgentCommandSpec),
}));

/** The `when` clause of a menu place, as package.json writes it. */
export function menuWhen(place: MenuPlace): string {
  if (place.on === 'title') return `view == ${JOBS_VIEW}`;
  if (place.on === 'job') return `view == ${JOBS_VIEW} && viewItem =~ /^job;/`;
  return `view == ${JOBS_VIEW} && viewItem =~ /;${place.on}(;|$)/`;
}
