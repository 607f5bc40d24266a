// Search as the service answers it from late August 2026.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { validateSearchParams } from '../../../src/api/params';
import { provenance, resultKind } from '../../../src/api/results';
import { SearchResponseSchema } from '../../../src/api/schemas';

describe('search as the service answers it today', () => {
  it('a doc: id that is an opaque hash: the kind from the prefix, provenance from the url', () => {
    const r = { id: 'doc:3f9a1c0e7b2d4a61', url: 'https://nodejs.org/api/http.html#agent' };
    assert.equal(resultKind(r), 'doc');
    const p = provenance(r);
    assert.equal(p.site, 'nodejs.org');
    assert.equal(p.path, '/api/http.html');
    assert.doesNotMatch(p.text, /3f9a1c0e/);
  });

  it('passage_budget_applied is accepted and kept', () => {
    const r = SearchResponseSchema.parse({ success: true, results: [], passage_budget_applied: 12 });
    assert.equal((r as { passage_budget_applied?: number }).passage_budget_applied, 12);
  });

  it('web is never a type a request may ask for: refused before sending, naming the field and the allowed values', () => {
    const v = validateSearchParams({ query: 'q', types: ['web'] });
    assert.equal(v.ok, false);
    const msg = !v.ok ? v.issues.map((i) => i.message).join(' ') : '';
    assert.match(msg, /types/);
    assert.match(msg, /doc, issue, pull_request, readme/);
  });
});
