// A vscode-free event emitter with the same `Event<T>` call shape as vscode's, so the job store can be
// unit-tested without the editor and still be subscribed to with `store.onDidChangeJob(fn)`.

export interface Disposable {
  dispose(): void;
}
export type Event<T> = (listener: (e: T) => void) => Disposable;

export class Emitter<T> {
  private readonly listeners = new Set<(e: T) => void>();

  readonly event: Event<T> = (listener) => {
    this.listeners.add(listener);
    return {
      dispose: () => {
        this.listeners.delete(listener);
      },
    };
  };

  fire(e: T): void {
    for (const l of [...this.listeners]) {
      // One failing listener must not starve the others (or the store's polling loop).
      try {
        l(e);
      } catch {
        /* listener errors are the listener's problem */
      }
    }
  }

  dispose(): void {
    this.listeners.clear();
  }
}
