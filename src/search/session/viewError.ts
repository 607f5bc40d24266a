// An ApiError (or anything thrown) as the message and next step the Search view offers: the one failure vocabulary
// (src/api/failure.ts computes the failure; src/words/failureWords.ts `viewError` is the Search view's table). The
// chat participant uses its action too. Editor-free.
import { failureOf } from '../../api/failure';
import { viewError, type ViewError } from '../../words/viewWords';

/** An ApiError (or anything thrown) as a message plus the next step the view offers; a cancelled search is 'aborted'. */
export function toViewError(e: unknown): ViewError | 'aborted' {
  const f = failureOf(e);
  return f.reason === 'cancelled' ? 'aborted' : viewError(f);
}
