import * as vscode from 'vscode';
import { keyEntryProblem } from '../api/redact';

const SECRET = 'devIndex.apiKey';

/** The API key, in SecretStorage only. Other windows share the store, so changes are observed, not assumed. */
export class ApiKeyStore implements vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<void>();
  private readonly sub: vscode.Disposable;
  private cached: Promise<string | undefined> | undefined;
  readonly onDidChange = this.emitter.event;

  constructor(private readonly secrets: vscode.SecretStorage) {
    this.sub = secrets.onDidChange((e) => {
      if (e.key !== SECRET) return;
      this.cached = undefined;
      this.emitter.fire();
    });
  }

  get(): Promise<string | undefined> {
    this.cached ??= Promise.resolve(this.secrets.get(SECRET)).then((v) => (v && v.trim() ? v : undefined));
    return this.cached;
  }

  async set(key: string): Promise<void> {
    const v = key.trim();
    if (!v) throw new Error('The API key is empty.');
    this.cached = Promise.resolve(v);
    await this.secrets.store(SECRET, v);
  }

  async clear(): Promise<void> {
    this.cached = Promise.resolve(undefined);
    await this.secrets.delete(SECRET);
  }

  dispose(): void {
    this.sub.dispose();
    this.emitter.dispose();
  }
}

/**
 * What makes a typed key acceptable before it is stored (it is sent as a bearer token): it can be sent
 * in a header (no control characters, Latin-1 only), has no spaces, and has a sane length.
 */
export function checkKeyInput(value: string): string | undefined {
  return keyEntryProblem(value);
}
