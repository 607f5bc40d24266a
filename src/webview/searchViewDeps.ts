// What the Search view's host side needs from the rest of the extension (wired in services.ts). Editor-free.
import type { SessionDeps, WatchableSearch } from '../search/session/searchSession';
import type { ViewWatches } from './protocol';

/** The Watched list behind the view (src/watches/editor.ts). */
export interface WatchViewPort {
  list(current: WatchableSearch | undefined): ViewWatches;
  add(search: WatchableSearch): Promise<void>;
  act(action: 'check' | 'remove' | 'open', id: string): Promise<void>;
}

/** What the Search view needs from the rest of the extension (wired in services.ts); `search` and `validate` are the session's. */
export interface SearchViewDeps extends SessionDeps {
  /** owner/repo slugs of the open workspace, offered as one click in the filters. */
  workspaceRepos(): Promise<string[]>;
  /** Whether an API key is set (read from SecretStorage; never the key itself). */
  hasKey(): Promise<boolean>;
  runCommand(id: 'devIndex.auth.setKey' | 'devIndex.diagnose'): void;
  /** Called only with an absolute http, https or mailto URL (re-checked here). */
  openExternal(url: string): void;
  /** False when no text editor is active. */
  insertAtCursor(text: string): Promise<boolean>;
  copy(text: string): Promise<void>;
  /** A read-only document for one result (content provider), named after it. */
  openMarkdownDocument(id: string, title: string, markdown: string): Promise<void>;
  /** A short confirmation in the status bar (never over the results). */
  status(message: string): void;
  /** Something the user asked for could not be done. */
  warn(message: string): void;
  /** The Watched list (absent: the view shows none). */
  watches?: WatchViewPort;
}
