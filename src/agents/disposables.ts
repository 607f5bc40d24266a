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

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const d of this.items.splice(0).reverse()) {
      try {
        d.dispose();
      } catch {
        /* keep releasing the rest */
      }
    }
  }
}
