// Tool names, apart from their definitions so that the editor's activation bundle can register the
// tools without carrying their schemas (those are in package.json for the editor).
export const TOOL_NAMES = {
  search: 'devIndex_search',
  startAgentJob: 'devIndex_startAgentJob',
  agentJobStatus: 'devIndex_agentJobStatus',
  cancelAgentJob: 'devIndex_cancelAgentJob',
  readSnapshot: 'devIndex_readSnapshot',
  readMore: 'devIndex_readMore',
  waitForAgentJob: 'devIndex_waitForAgentJob',
  listAgentJobs: 'devIndex_listAgentJobs',
  answerApproval: 'devIndex_answerApproval',
  fixes: 'devIndex_fixes',
} as const;
export type ToolName = (typeof TOOL_NAMES)[keyof typeof TOOL_NAMES];

/** The editor's tools (the MCP server adds readSnapshot). */
export const EDITOR_TOOL_NAMES: readonly ToolName[] = [
  TOOL_NAMES.search,
  TOOL_NAMES.readMore,
  TOOL_NAMES.startAgentJob,
  TOOL_NAMES.agentJobStatus,
  TOOL_NAMES.waitForAgentJob,
  TOOL_NAMES.listAgentJobs,
  TOOL_NAMES.cancelAgentJob,
  TOOL_NAMES.answerApproval,
  TOOL_NAMES.fixes,
];

/** Settings of the tools (package.json `contributes.configuration`). */
export const TOOL_SETTINGS = {
  enabled: 'devIndex.tools.enabled',
  maxChars: 'devIndex.tools.maxResultCharacters',
} as const;
