// The extension side of the Search view without the editor: a dispatcher over the typed channel (viewChannel.ts:
// checked messages, the ready handshake, request ids) and the search session (src/search/session/), which owns
// the pipeline. The vscode glue is in searchViewProvider.ts; keeping this file free of `vscode` lets unit tests drive it.
import type { SearchParams } from '../api/params';
import { signupLink } from '../api/notices';
import { passagesDocument } from '../search/session/outcome';
import type { SearchOptions, ShowRequest } from '../search/session/request';
import { SearchSession, type SearchMessage, type WatchableSearch } from '../search/session/searchSession';
import { externalUrl } from './linkPolicy';
import type { FromWebview, ToWebview, ViewCommand } from './protocol';
import type { SearchViewDeps } from './searchViewDeps';
import { ViewChannel } from './viewChannel';

export type { SearchOptions, ShowRequest } from '../search/session/request';
export type { WatchableSearch } from '../search/session/searchSession';
export type { SearchViewDeps, WatchViewPort } from './searchViewDeps';

export class SearchController {
  private readonly channel: ViewChannel;
  private repos: string[] = [];
  /** Before a command's search: how the view is shown (the provider reveals it); the channel then waits for its ready. */
  private reveal: () => Promise<void> = async () => undefined;

  constructor(
    private readonly deps: SearchViewDeps,
    post: (m: ToWebview) => unknown,
    readonly session: SearchSession = new SearchSession(deps),
  ) {
    this.channel = new ViewChannel(post, (line) => deps.log(line));
    session.attach({
      // Shown first, then waited for: a view that says ready while it is revealed is not missed.
      show: async () => {
        void this.reveal().catch((e: unknown) =>
          deps.log(`search view: could not show the view: ${e instanceof Error ? e.message : String(e)}`),
        );
        await this.channel.whenReady();
      },
      emit: (m: SearchMessage, how) => (how.deliver ? this.channel.deliver(m, how.fromCommand) : this.channel.send(m)),
      watchableChanged: () => this.watchesChanged(),
    });
  }

  /** A new webview (first resolve, or rebuilt after hide/reload): nothing is posted until it says ready. */
  attach(post: (m: ToWebview) => unknown, visible: () => boolean = () => true): void {
    this.channel.attach(post, visible);
  }

  detach(): void {
    this.channel.detach();
  }

  /** How a command's search shows the view (the provider's reveal). */
  revealWith(reveal: () => Promise<void>): void {
    this.reveal = reveal;
  }

  /** The filters the view shows now (what a `keep` search uses); undefined before the view ever loaded. */
  scope(): SearchParams | undefined {
    return this.session.scope();
  }

  /**
   * Get a Key: opens the keyless quota's signup link the view's button carries, only when it passes the signup link
   * check and the link policy.
   */
  private getKey(url: string): void {
    const link = signupLink(url);
    const safe = link ? externalUrl(link) : undefined;
    if (!safe) {
      this.deps.log(
        `search view: refused to open a signup link that is not an https link to a plain host (${JSON.stringify(url.slice(0, 60))})`,
      );
      return;
    }
    this.deps.openExternal(safe);
  }

  /** A command's search, through the session (see SearchSession.search). Resolves when it has finished. */
  search(request: ShowRequest, opts: SearchOptions): Promise<void> {
    return this.session.search(request, opts);
  }

  /** The search Watch for a Fix would save now. */
  watchableSearch(): WatchableSearch | undefined {
    return this.session.watchableSearch();
  }

  /** The Watched list changed (or what can be watched): a ready view is sent the list. */
  watchesChanged(): void {
    if (!this.deps.watches) return;
    if (!this.channel.ready) {
      // Said in the log: the e2e tier once waited a minute for a watch the extension had added in 24 ms.
      this.deps.log(
        'search view: the Watched list changed while the view was not listening; it is sent when the view says ready',
      );
      return;
    }
    this.channel.send({ type: 'watches', ...this.deps.watches.list(this.session.watchableSearch()) });
  }

  /** A view title command (Clear, Refresh, Expand All, Collapse All). */
  command(command: ViewCommand): void {
    this.channel.send({ type: 'command', command });
  }

  /** The key was set, replaced or cleared (here or in another window): the view's keyless notice follows. */
  async keyChanged(): Promise<void> {
    if (this.channel.ready) await this.sendKeyState();
  }

  private async sendKeyState(): Promise<void> {
    let hasKey: boolean;
    try {
      hasKey = await this.deps.hasKey();
    } catch (e) {
      this.deps.log(
        `search view: could not read whether an API key is set: ${e instanceof Error ? e.message : String(e)}`,
      );
      return;
    }
    this.channel.send({ type: 'keyState', hasKey });
  }

  dispose(): void {
    this.session.dispose();
  }

  /** Entry point for every message from the webview: validated, or logged and dropped. */
  async receive(raw: unknown): Promise<void> {
    const m = this.channel.parse(raw);
    if (!m) return;
    if (this.channel.listensUnannounced(m)) {
      // A document on screen that posts is listening: a view marked not listening (hidden, then shown without a
      // new document) would otherwise never be sent anything again. Take it as ready and send it what ready sends.
      this.deps.log(`search view: ${m.type} came from a view that had not said ready; it is sent the current state`);
      await this.onReady(undefined, undefined);
    }
    try {
      await this.handle(m);
    } catch (e) {
      this.deps.log(`search view: ${m.type} failed: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  private async handle(m: FromWebview): Promise<void> {
    switch (m.type) {
      case 'ready':
        return this.onReady(m.pendingRequestId, m.scope);
      case 'scope':
        this.session.setScope(m.params);
        return;
      case 'validate':
        this.channel.send({ type: 'validation', requestId: m.requestId, issues: this.session.validate(m.params) });
        return;
      case 'search':
        return this.session.run(m.requestId, m.params, { fromCommand: false, ...(m.keyless ? { keyless: true } : {}) });
      case 'cancel':
        return this.session.cancel(m.requestId);
      case 'openLink': {
        const url = externalUrl(m.url);
        if (url) this.deps.openExternal(url);
        else
          this.deps.log(
            `search view: refused to open a link that is not http, https or mailto (${JSON.stringify(m.url.slice(0, 60))})`,
          );
        return;
      }
      case 'copy':
        await this.deps.copy(m.text);
        this.deps.status(m.what === 'link' ? 'Copied the link' : 'Copied the passage');
        return;
      case 'insert': {
        const ok = await this.deps.insertAtCursor(m.text);
        if (ok) this.deps.status('Inserted the passage at the cursor');
        else this.deps.warn('Developer Index: no editor is active. Open a file, place the cursor, then insert again.');
        return;
      }
      case 'openPassages':
        await this.deps.openMarkdownDocument(
          m.id,
          m.title,
          passagesDocument(m.title, m.url, m.passages, this.session.versionsOf(m.id)),
        );
        return;
      case 'setKey':
        return this.deps.runCommand('devIndex.auth.setKey');
      case 'getKey':
        this.getKey(m.url);
        return;
      case 'diagnose':
        return this.deps.runCommand('devIndex.diagnose');
      case 'watch': {
        const watchable = this.session.watchableSearch();
        if (watchable && this.deps.watches) await this.deps.watches.add(watchable);
        else
          this.deps.warn(
            'Developer Index: run a search scoped to a dependency or a repository first, then watch it for a fix.',
          );
        return;
      }
      case 'watchAction':
        await this.deps.watches?.act(m.action, m.id);
        return;
      case 'log':
        // One line per entry: the view cannot forge further Output lines.
        this.deps.log(`search view: ${m.message.replace(/[\r\n\u2028\u2029]+/g, ' ')}`);
        return;
    }
  }

  /**
   * devIndex.search.* settings changed: a ready view gets the new defaults (fields still at the old ones
   * follow, in the session's scope at once). Sent with the repositories read at ready, before any search that follows.
   */
  settingsChanged(): void {
    const next = this.session.settingsChanged();
    this.channel.send({ type: 'init', defaults: next, workspaceRepos: this.repos });
  }

  private async workspaceRepos(): Promise<string[]> {
    try {
      return await this.deps.workspaceRepos();
    } catch (e) {
      this.deps.log(
        `search view: could not read the workspace repositories: ${e instanceof Error ? e.message : String(e)}`,
      );
      return [];
    }
  }

  private async onReady(pendingRequestId: string | undefined, scope: SearchParams | undefined): Promise<void> {
    if (scope) this.session.setScope(scope);
    this.repos = await this.channel.readyWith(() => this.workspaceRepos()); // never throws: a failure is logged and reads as none
    this.channel.send({ type: 'init', defaults: this.session.defaultsSent(), workspaceRepos: this.repos });
    await this.sendKeyState();
    this.watchesChanged();
    const delivered = this.channel.flushBacklog();
    if (pendingRequestId && !delivered.has(pendingRequestId)) {
      const where = this.session.whereIs(pendingRequestId);
      if (where === 'running')
        this.channel.send({
          type: 'searchStarted',
          requestId: pendingRequestId,
          params: this.session.scope() ?? { query: '' },
        });
      else if (where) this.channel.send(where);
      else
        this.channel.send({
          type: 'searchError',
          requestId: pendingRequestId,
          error: {
            message: 'The search was interrupted (the window reloaded or the extension restarted). Run it again.',
            action: 'retry',
          },
        });
    }
    this.channel.releaseWaiters();
  }
}
