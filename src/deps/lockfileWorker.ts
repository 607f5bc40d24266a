// The entry of dist/lockfiles.js: a worker thread that reads lockfiles for the editor (lockfileThread.ts), so that
// a 30 MB lockfile is read and scanned off the extension host's event loop. One request at a time per message.
import { parentPort } from 'node:worker_threads';
import { readLockfileVersions, type LockfileRequest } from './lockfileRead';

export interface LockfileWorkerRequest {
  id: number;
  req: LockfileRequest;
}
export interface LockfileWorkerAnswer {
  id: number;
  versions?: Array<[string, string]>;
  error?: string;
}

parentPort?.on('message', (m: LockfileWorkerRequest) => {
  readLockfileVersions(m.req).then(
    (v) => parentPort!.postMessage({ id: m.id, ...(v ? { versions: [...v] } : {}) } satisfies LockfileWorkerAnswer),
    (e: unknown) =>
      parentPort!.postMessage({
        id: m.id,
        error: e instanceof Error ? e.message : String(e),
      } satisfies LockfileWorkerAnswer),
  );
});
