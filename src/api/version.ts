// Kept as a literal so the bundles do not inline package.json; a unit test checks it matches.
export const VERSION = '0.1.0';
export const USER_AGENT = `devindex/${VERSION}`;
