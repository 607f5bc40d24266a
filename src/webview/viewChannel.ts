// The typed channel to the Search view's webview, without the editor: every message in is checked against the
// protocol (or logged and dropped); nothing goes out until the document says `ready` (the handshake), a
// command's search posted meanwhile waits in a backlog delivered at ready, and progress is dropped.
import { fromWebviewSchema, type FromWebview, type ToWebview } from './protocol';

/**
 * What a starting document may post before its `ready` (a failed start logs): these never mean that a view marked
 * not listening is listening.
 */
const BEFORE_READY: ReadonlySet<FromWebview['type']> = new Set(['ready', 'log']);

/** How long a command waits for the view to load before it runs the search anyway. */
const READY_TIMEOUT_MS = 15_000;

function describeIssues(issues: readonly { path: PropertyKey[]; message: string }[]): string {
  return issues
    .slice(0, 3)
    .map((i) => `${i.path.map(String).join('.') || '(message)'}: ${i.message}`)
    .join('; ');
}

export class ViewChannel {
  private isReady = false;
  /** Whether the view is on screen (a hidden view has no document to send to). */
  private visible: () => boolean = () => true;
  /** Calls between the view's ready and `ready` (reading the workspace's repositories). */
  private readying = 0;
  private readyWaiters: Array<() => void> = [];
  /** A command's search posted while the view was not listening: delivered at ready. */
  private backlog: ToWebview[] = [];

  constructor(
    private post: (m: ToWebview) => unknown,
    private readonly log: (line: string) => void,
  ) {}

  /** A new webview (first resolve, or rebuilt after hide/reload): nothing is posted until it says ready. */
  attach(post: (m: ToWebview) => unknown, visible: () => boolean): void {
    this.post = post;
    this.visible = visible;
    this.isReady = false;
  }

  detach(): void {
    this.isReady = false;
  }

  get ready(): boolean {
    return this.isReady;
  }

  /** A message from the webview, checked: the message, or undefined (logged) when it is not one of the protocol's. */
  parse(raw: unknown): FromWebview | undefined {
    const parsed = fromWebviewSchema().safeParse(raw);
    if (parsed.success) return parsed.data;
    const type =
      raw && typeof raw === 'object' && typeof (raw as { type?: unknown }).type === 'string'
        ? (raw as { type: string }).type.slice(0, 40)
        : typeof raw;
    this.log(
      `search view: dropped an invalid message (${JSON.stringify(type)}): ${describeIssues(parsed.error.issues)}`,
    );
    return undefined;
  }

  /**
   * Whether a message shows that a view marked not listening is listening: a document on screen that posts (other
   * than what a starting document posts) is, unless it is being readied. A hidden view's last message is not.
   */
  listensUnannounced(m: FromWebview): boolean {
    return !this.isReady && !BEFORE_READY.has(m.type) && !this.readying && this.visible();
  }

  /** The view's ready: `prepare` reads what ready sends; then it is marked ready (the caller sends, then `readied`). */
  async readyWith<T>(prepare: () => Promise<T>): Promise<T> {
    this.readying += 1;
    const out = await prepare();
    this.readying -= 1;
    this.isReady = true;
    return out;
  }

  /** After ready's own messages: the backlog (returned: the request ids it held), then whoever waited for ready. */
  flushBacklog(): Set<string> {
    const backlog = this.backlog;
    this.backlog = [];
    for (const m of backlog) this.send(m);
    return new Set(backlog.map((m) => ('requestId' in m ? m.requestId : '')));
  }

  releaseWaiters(): void {
    const waiters = this.readyWaiters;
    this.readyWaiters = [];
    for (const w of waiters) w();
  }

  /** Resolves when the view is listening, or after READY_TIMEOUT_MS (the search then runs anyway); the old backlog is dropped. */
  async whenReady(): Promise<void> {
    if (!this.isReady) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          this.readyWaiters = this.readyWaiters.filter((w) => w !== done);
          resolve();
        }, READY_TIMEOUT_MS);
        const done = () => {
          clearTimeout(timer);
          resolve();
        };
        this.readyWaiters.push(done);
      });
    }
    this.backlog = [];
  }

  /** Posted when the view listens, else dropped. */
  send(m: ToWebview): void {
    if (this.isReady) this.postNow(m);
  }

  /** Posted when the view listens, else kept for its ready when a command started it. */
  deliver(m: ToWebview, fromCommand: boolean): void {
    if (this.isReady) this.postNow(m);
    else if (fromCommand) this.backlog.push(m);
  }

  private postNow(m: ToWebview): void {
    void this.post(m);
  }
}
