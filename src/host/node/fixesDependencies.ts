// Node's dependency list for the fixes check: the engine's own reader (direct dependencies, with their manifest lines).
import type { WorkspaceDependencies } from '../../fixes/report';
import { readWorkspaceDependencies } from '../../fixes/workspace';

export function fixesDependencies(folder: string): Promise<WorkspaceDependencies> {
  return readWorkspaceDependencies(folder, {});
}
