import * as vscode from 'vscode';

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

/** What makes a typed key acceptable before it is stored (it is sent as a bearer token). */
export function checkKeyInput(value: string): string | undefined {
  const v = value.trim();
  if (!v) return 'Enter the API key from your account\'s key management page.';
  if (/\s/.test(v)) return 'An API key has no spaces or line breaks.';
  if (v.length > 512) return `An API key is at most 512 characters (this one has ${v.length}).`;
  return undefined;
}
