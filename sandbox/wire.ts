/**
 * Which response shapes the sandbox speaks: `production` (what the service sends today, the
 * addendum's "What the production service sends today") or `spec` (the specification's).
 * See sandbox/README.md, "Wire".
 */
export type Wire = 'production' | 'spec';
