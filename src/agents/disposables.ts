// Pattern 8: an owner of disposables; dispose() releases them in reverse order of registration.
import type { Disposable } from './emitter';

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
