// The client's validation messages name wire parameters ("types must hold at least one of doc, ...").
// The CLI keeps them; the view says the same thing with the form's labels, in plain words. Pure.
import type { ParamIssue } from '../../api/params';
import type { ViewError } from '../../words/viewWords';
import { FIELD_LABELS } from './form';
import { durationWords } from '../../words/duration';

function quoted(message: string): string | undefined {
  return /got (".*")\s*(\(|$)/.exec(message)?.[1] ?? /got (".*")$/.exec(message)?.[1];
}

/** One issue from the client (or the form) in the view's words; the field stays the parameter name. */
export function plainIssue(i: ParamIssue): ParamIssue {
  const label = FIELD_LABELS[i.field] ?? i.field;
  const m = i.message;
  const say = (message: string): ParamIssue => ({ field: i.field, message });
  // Messages the form itself wrote are already in its words.
  if (m.startsWith(label)) return i;
  switch (i.field) {
    case 'query':
      return say('Type something to search for');
    case 'types':
      if (/at least one/.test(m)) return say('Pick at least one result type');
      return say(
        `Result types: ${quoted(m) ?? 'an unknown type'} is not one of Documentation, Issues, Pull requests, READMEs`,
      );
    case 'repos':
      if (/cannot match any requested type/.test(m))
        return say(
          'Repositories apply only to issues, pull requests and READMEs: tick one of those result types, or clear Repositories',
        );
      if (/owner\/repo/.test(m)) return say(`Repositories: ${quoted(m) ?? 'an entry'} is not in the form owner/repo`);
      break;
    case 'sources':
      if (/cannot match any requested type/.test(m))
        return say(
          'Documentation sources apply only to documentation: tick Documentation, or clear Documentation sources',
        );
      if (/at most (\d+)/.test(m)) return say(`Documentation sources: at most ${/at most (\d+)/.exec(m)![1]} ids`);
      if (/characters long/.test(m)) return say('Documentation sources: each id is 1 to 512 characters');
      break;
    case 'min_stars':
      if (/greater than max_stars/.test(m)) return say('Min stars is above Max stars');
      return say('Min stars must be a whole number, 0 or more');
    case 'max_stars':
      return say('Max stars must be a whole number, 0 or more');
    case 'topic':
      if (/1 to (\d+) topics/.test(m))
        return say(`Topic: 1 to ${/1 to (\d+) topics/.exec(m)![1]} topics, comma separated`);
      return say('Topic cannot be empty');
    case 'language':
    case 'license':
      return say(`${label} cannot be empty`);
  }
  const range = /from (\d+) to (\d+)/.exec(m);
  if (range) return say(`${label} must be a whole number from ${range[1]} to ${range[2]}`);
  // Anything else: the client's text, without its parameter name in front.
  return say(`${label}: ${m.replace(new RegExp(`^${i.field.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b\\s*`), '')}`);
}

/** A countdown to a reset, by the minute: "12 h 59 min", "13 h", "45 min", "1 min" (never 0 before the reset). */
export function countdownWords(ms: number): string {
  return durationWords(ms, { smallest: 'min', round: 'up', upTo: 60, largest: 'h' });
}

/** The keyless line while the daily keyless quota is used up (state first): "Keyless searches used up · resets in 12 h 59 min". */
export function keylessQuotaLine(resetAt: number, now: number, quota?: 'requests' | 'credits'): string {
  const what = quota === 'credits' ? 'Keyless search credits used up' : 'Keyless searches used up';
  return resetAt > now
    ? `${what} · resets in ${countdownWords(resetAt - now)}`
    : `${what} until a moment ago · search again`;
}

/** The error box's heading: what went wrong, in a few words. */
export function errorTitle(err: ViewError): string {
  return err.keyless?.kind === 'quota'
    ? err.keyless.quota === 'credits'
      ? 'Keyless search credits used up'
      : 'Keyless searches used up'
    : err.keyless?.kind === 'refused'
      ? 'Keyless search refused on this network'
      : err.status === 401
        ? 'The service did not accept the API key'
        : err.status === 429
          ? 'Rate limited'
          : err.action === 'retry'
            ? 'The search failed'
            : 'The search was refused';
}

/** What the live region says when a search ends with results: "10 results", "1 result", "No results". */
export function resultsAnnouncement(n: number): string {
  return n === 0 ? 'No results' : `${n} result${n === 1 ? '' : 's'}`;
}

/** What the live region says about a failed or refused search: the box's heading and message, or the form's words. */
export function errorAnnouncement(err: ViewError): string {
  if (err.action === 'fix' && err.issues?.length) return issuesAnnouncement(err.issues);
  return `${errorTitle(err)}. ${err.message}`;
}

/** A search the form refused before sending: the fields' messages in the form's words. */
export function issuesAnnouncement(issues: ParamIssue[]): string {
  const msgs = [...new Set(issues.map((i) => plainIssue(i).message))];
  return `Search not sent. ${msgs.join('. ')}`;
}
