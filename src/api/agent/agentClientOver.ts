// The agent endpoints over a search client: the same pool, key and retry rules. One AgentClient per
// DevIndexClient, so a settings change (a new client) gets a new one and the old one is dropped with it.
import type { DevIndexClient } from '../client';
import { AgentClient } from './agentClient';

const over = new WeakMap<DevIndexClient, AgentClient>();

export function agentClientOver(client: DevIndexClient): AgentClient {
  let api = over.get(client);
  if (!api) over.set(client, (api = new AgentClient(client)));
  return api;
}
