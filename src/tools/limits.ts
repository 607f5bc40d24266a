// Bounds of the tools' own inputs. Token budgets turn into characters at CHARS_PER_TOKEN
// (src/tools/tokens.ts): 500 to 50,000 tokens is the 2,000 to 200,000 characters of devIndex.tools.maxResultCharacters.
export const MIN_MAX_TOKENS = 500;
export const MAX_MAX_TOKENS = 50_000;
/** Fits a normal chat turn: the default 12,000-character budget. */
export const DEFAULT_MAX_TOKENS = 3_000;
export const MIN_WAIT_SECONDS = 1;
export const MAX_WAIT_SECONDS = 600;
export const DEFAULT_WAIT_SECONDS = 60;
export const DEFAULT_LIST_JOBS = 10;
export const MAX_LIST_JOBS = 50;
