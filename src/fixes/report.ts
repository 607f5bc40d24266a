// The fixes check's data, shared by the CLI (`devindex fixes --json` prints FixesReport as it is), the
// editor's view and diagnostics, the tools and the chat: what goes in (a folder's dependencies), what comes
// out (per dependency the fixes its installed version lacks), and the progress events between. No vscode.
import type { Failure } from '../api/failure';
import type { Ecosystem } from '../versions/versionCompare';

/** Where a dependency is declared: the manifest (or, for a transitive one, the lockfile) and its 1-based line. */
export interface ManifestLocation {
  /** Relative to the workspace folder, `/`-separated: `package.json`, `go.mod`, `Cargo.lock`, `requirements.txt`. */
  file: string;
  line: number;
}

/** One dependency of a workspace folder, as the readers found it. */
export interface WorkspaceDependency {
  ecosystem: Ecosystem;
  name: string;
  /** The installed version as the disk states it; absent when unknown (never guessed). */
  installed?: string;
  /** `owner/repo` on GitHub; absent when the dependency has none (then `skipReason` says why). */
  repository?: string;
  /** Why there is nothing to search: `repository on GitLab`, `no repository named in its manifest`, … */
  skipReason?: string;
  manifest: ManifestLocation;
  /** Declared by the folder's own manifest (dev ones included); false: only in the lockfile (`--all`). */
  direct: boolean;
}

export interface WorkspaceDependencies {
  /** The folder read (absolute). */
  folder: string;
  dependencies: WorkspaceDependency[];
}

export type ResultKind = 'issue' | 'pull_request';

/** A result stating the bug was fixed in a version newer than the installed one. */
export interface LackedFix {
  id: string;
  url: string;
  title: string;
  kind: ResultKind;
  /** The fix version the result states, as written (`3.3.0`). */
  fixedIn: string;
}

/** A result stating the bug affects the installed version, with no fix stated for it yet. */
export interface AffectingIssue {
  id: string;
  url: string;
  title: string;
  kind: ResultKind;
  /** The affected versions the result states, as written (`3.1.0+`, `2.0.x`, `2.0.0–2.0.3`). */
  affects: string;
}

/** A dependency that was checked; `fixes` is empty when it lacks none. */
export interface CheckedDependency {
  name: string;
  ecosystem: Ecosystem;
  /** The installed version (a dependency whose version is unknown is skipped: nothing to set a fix against). */
  installed: string;
  repository: string;
  manifest: ManifestLocation;
  fixes: LackedFix[];
  affecting: AffectingIssue[];
}

export interface NamedReason {
  name: string;
  reason: string;
}

/** What `devindex fixes --json` prints, exactly. */
export interface FixesReport {
  dependencies: CheckedDependency[];
  /** Dependencies with no GitHub repository to search (never an error). */
  skipped: NamedReason[];
  /** Dependencies not checked this time (a rate limit, a cancel, the time limit, a failure): the next run checks them. */
  unchecked: NamedReason[];
  /** Searches sent in this run (cached answers send none). */
  searches: number;
}

/** Why new searches stopped before every dependency was checked. */
export type StopReason = 'rate-limited' | 'cancelled' | 'time-limit' | 'failed';

export interface FixesStop {
  reason: StopReason;
  /** One line for a person: the client's message (never the key). */
  message: string;
  /** The keyless quota's 429: the caller's own link to create a key (checked: notices.ts signupLink). */
  signupUrl?: string;
  /** The 429 came from a call without a key: Set API Key is a way out. */
  keyless?: boolean;
  /** The failure that stopped it, as data (src/words/failureWords.ts words it for each surface). */
  failure?: Failure;
}

/** The engine's answer: the report, why it stopped early (if it did), and how many answers came from the cache. */
export interface FixesOutcome {
  report: FixesReport;
  stop?: FixesStop;
  fromCache: number;
}

/** Progress, in order: `started` once, `checked` per dependency (cached ones too), `stopped` at most once. */
export type FixesProgress =
  | { kind: 'started'; total: number; cached: number }
  | { kind: 'checked'; name: string; done: number; total: number; cached: boolean; fixes: number }
  | { kind: 'stopped'; stop: FixesStop; done: number; total: number };
