// An agent of a job's trace: the orchestrator at the top, subagents nested under their parent.
import * as vscode from 'vscode';
import type { AgentGroup } from '../agentRun/agentTrace';
import { themeIcon } from './jobNode';
import { agentState, stateFirstLabel, stateIcon, stateWords } from './jobState';

export class AgentNode extends vscode.TreeItem {
  readonly kind = 'agent' as const;

  constructor(
    readonly jobId: string,
    readonly agent: AgentGroup,
    jobRunning: boolean | 'waiting',
  ) {
    const name = agent.agent.name ?? agent.agent.id;
    super(
      name,
      agent.agent.role === 'orchestrator'
        ? vscode.TreeItemCollapsibleState.Expanded
        : vscode.TreeItemCollapsibleState.Collapsed,
    );
    const live = agentState(agent, jobRunning !== false);
    const state = live === 'running' && jobRunning === 'waiting' ? 'waiting' : live;
    const role = agent.agent.role;
    const events = `${agent.events.length} event${agent.events.length === 1 ? '' : 's'}`;
    this.id = `job:${jobId}/agent:${agent.agent.id}`;
    // The role once: not again when the agent is named after it ("orchestrator").
    this.description = [...(role !== name ? [role] : []), stateWords(state), events].join(' · ');
    // A browser worker has its own icon, coloured by its state like the others.
    this.iconPath = themeIcon(role === 'browser' ? { ...stateIcon(state), id: 'browser' } : stateIcon(state));
    this.contextValue = ['agent', role, state].join(';');
    this.tooltip = `${name} (${role}, id ${agent.agent.id}${agent.agent.parentId ? `, spawned by ${agent.agent.parentId}` : ''})`;
    this.accessibilityInformation = {
      label: stateFirstLabel([stateWords(state), role, events].join(' · '), `agent ${name}`),
    };
  }
}
