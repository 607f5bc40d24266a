// The editor's side of the shared records (sharedRecords.ts): globalState, which every window of the editor
// shares, as the storage the record store writes to. Everything else about the records is editor-free.
import type * as vscode from 'vscode';
import type { RecordStorage } from './sharedRecords';

export function globalStateRecords(memento: vscode.Memento): RecordStorage {
  return {
    get: <T>(key: string) => memento.get<T>(key),
    update: (key, value) => memento.update(key, value),
    keys: () => memento.keys(),
  };
}
