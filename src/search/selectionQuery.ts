// Pure: turn an editor selection into a query. No vscode import.

/** Longest query taken from a selection: past this a selection is code to read, not a question to ask. */
export const MAX_SELECTION_QUERY = 400;

interface SelectionQuery {
  query: string;
  cut: boolean;
  originalLength: number;
}

/** Folds all whitespace to single spaces and cuts past MAX_SELECTION_QUERY at a word boundary. */
export function selectionToQuery(text: string, max = MAX_SELECTION_QUERY): SelectionQuery {
  const folded = text.replace(/\s+/gu, ' ').trim();
  if (folded.length <= max) return { query: folded, cut: false, originalLength: folded.length };
  const head = folded.slice(0, max);
  const space = head.lastIndexOf(' ');
  const query = (space > max * 0.6 ? head.slice(0, space) : head).trim();
  return { query, cut: true, originalLength: folded.length };
}
