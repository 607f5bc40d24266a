// Kept as a literal so the bundles do not inline package.json; a unit test checks it matches.
export const VERSION = '0.1.0';
export const USER_AGENT = `devindex/${VERSION}`;
/** What each front end sends as `origin` (the official SDK sends `js-sdk@<version>` the same way). */
export const ORIGINS = { vscode: `devindex-vscode@${VERSION}`, cli: `devindex-cli@${VERSION}` } as const;
