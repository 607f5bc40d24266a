// vscode-free and Node-free: the files that say what a folder depends on, for watchers and root finding
// (the browser build reads them too).
export const MANIFEST_GLOB =
  '{package.json,package-lock.json,npm-shrinkwrap.json,yarn.lock,pnpm-lock.yaml,go.mod,go.sum,Cargo.toml,Cargo.lock,pyproject.toml,requirements.txt,poetry.lock,uv.lock,Pipfile.lock}';
export const MANIFEST_NAMES = [
  'package.json',
  'go.mod',
  'Cargo.toml',
  'pyproject.toml',
  'requirements.txt',
  'setup.py',
  '.venv',
  'venv',
];
