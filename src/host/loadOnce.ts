// The one lazy-loading helper: a module (or anything costly) made on the first get() and kept.

export interface LoadOnce<T> {
  get(): T;
  loaded(): boolean;
}

export function loadOnce<T>(load: () => T): LoadOnce<T> {
  let value: { v: T } | undefined;
  return {
    get: () => (value ??= { v: load() }).v,
    loaded: () => value !== undefined,
  };
}
