// A vscode-free event emitter with the same `Event<T>` call shape as vscode's (the job store is unit-tested without
// the editor and still subscribed to with `store.onDidChangeJob(fn)`), and an owner of disposables.

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

/** An owner of disposables (pattern 8): dispose() releases them in reverse order of registration. */
export class DisposableStore implements Disposable {
  private readonly items: Disposable[] = [];
  private disposed = false;

  register<T extends Disposable>(d: T): T {
    if (this.disposed) d.dispose();
    else this.items.push(d);
    return d;
  }

  /** Resolves once what the items hand back (a store's last writes) has settled. */
  dispose(): Promise<void> {
    if (this.disposed) return Promise.resolve();
    this.disposed = true;
    return settleAll(this.items.splice(0).reverse());
  }
}

/** Disposes each in order, one throwing or rejecting not stopping the rest; resolves when all have settled. */
export function settleAll(items: Iterable<{ dispose(): unknown }>): Promise<void> {
  const pending: unknown[] = [];
  for (const d of items) {
    try {
      pending.push(d.dispose());
    } catch {
      /* keep releasing the rest */
    }
  }
  return Promise.allSettled(pending).then(() => undefined);
}
