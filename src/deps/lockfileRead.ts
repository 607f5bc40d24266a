// Node, vscode-free: one lockfile read from disk and scanned for the wanted names, in the thread that calls it.
// The CLI bundles call it directly; in the editor, dist/core.js gets lockfileThread.ts in its place (scripts/build.mjs,
// plugin lockfiles-in-worker), which runs this very function in a worker thread (dist/lockfiles.js).
import { promises as fsp } from 'node:fs';
import { cargoLockVersions, npmLockVersions, pnpmLockVersions, yarnLockVersions, type Versions } from './lockfiles';

export type LockfileKind = 'package-lock.json' | 'npm-shrinkwrap.json' | 'yarn.lock' | 'pnpm-lock.yaml' | 'Cargo.lock';

export interface LockfileRequest {
  path: string;
  kind: LockfileKind;
  /** The wanted names (npm packages, crates). */
  names: string[];
  /** yarn.lock: the manifest's range per name, to pick among blocks resolved apart. */
  ranges?: Array<[string, string]>;
  /** Cargo.lock: the root package, whose dependency list picks among several versions. */
  rootPackage?: string;
  /** A file above this size is not read. */
  maxBytes: number;
}

/** Reads one lockfile; undefined when it is absent, not a file, above the size cap or unreadable (its versions stay unknown). */
export type LockfileReader = (req: LockfileRequest) => Promise<Versions | undefined>;

/** Gives the event loop a turn between slices of lockfile work, so a huge lockfile never holds the thread for long. */
const yieldTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The lockfile's versions for the wanted names, read and scanned in this thread. */
export const readLockfileVersions: LockfileReader = async (req) => {
  let text: string;
  try {
    const st = await fsp.stat(req.path);
    if (!st.isFile() || st.size > req.maxBytes) return undefined;
    text = await fsp.readFile(req.path, 'utf8');
  } catch {
    return undefined;
  }
  switch (req.kind) {
    case 'yarn.lock':
      return yarnLockVersions(text, req.names, new Map(req.ranges ?? []));
    case 'pnpm-lock.yaml':
      return pnpmLockVersions(text, req.names);
    case 'Cargo.lock':
      return cargoLockVersions(text, req.names, req.rootPackage);
    default: {
      // One name per turn: each is one scan of the text (tens of ms on 30 MB), never the whole list at once.
      const versions: Versions = new Map();
      for (let i = 0; i < req.names.length; i++) {
        if (i) await yieldTurn();
        for (const [k, v] of npmLockVersions(text, [req.names[i]!])) versions.set(k, v);
      }
      return versions;
    }
  }
};
