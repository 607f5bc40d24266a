// The `@devindex` chat participant (package.json contributes.chatParticipants), registered at activation where the
// editor has the chat participant API. Activation bundle: it registers and answers follow-ups (chat/followups.ts);
// each request is handled by dist/features.js (src/chat/participant.ts), loaded on the first one.
import * as vscode from 'vscode';
import type { ToolWiring } from '../tools/editorTools';
import { followupsFor, type ChatMeta } from './followups';
import type { handleChatRequest } from './participant';

export const PARTICIPANT_ID = 'devIndex.participant';

/** The chat API of `ns` (the vscode module), when this editor has it. */
export function chatApi(ns: object): Pick<typeof vscode.chat, 'createChatParticipant'> | undefined {
  const chat = (ns as { chat?: Partial<typeof vscode.chat> }).chat;
  return chat && typeof chat.createChatParticipant === 'function'
    ? (chat as Pick<typeof vscode.chat, 'createChatParticipant'>)
    : undefined;
}

export function provideFollowups(result: vscode.ChatResult): vscode.ChatFollowup[] {
  return followupsFor(result.metadata as Partial<ChatMeta> | undefined).map((f) => ({
    prompt: f.prompt,
    label: f.label,
    command: f.command,
    participant: PARTICIPANT_ID,
  }));
}

/** `handle()`: the participant's handler, from the entry's dist/features.js on the desktop (loaded on the first request). */
export function registerChatParticipant(
  context: vscode.ExtensionContext,
  wiring: ToolWiring,
  handle: () => typeof handleChatRequest,
): void {
  const chat = chatApi(vscode);
  if (!chat) return;
  const handler: vscode.ChatRequestHandler = (request, ctx, stream, token) =>
    handle()(request, ctx, stream, token, wiring);
  const participant = chat.createChatParticipant(PARTICIPANT_ID, handler);
  participant.iconPath = vscode.Uri.joinPath(context.extensionUri, 'media', 'devindex.svg');
  participant.followupProvider = { provideFollowups };
  context.subscriptions.push(participant);
}
