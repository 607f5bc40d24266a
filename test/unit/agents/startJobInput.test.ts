import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { askStartJob, emptyDraft, fieldOfIssues, type InputStep, parseMaxCredits, parseUrls, validatePrompt } from '../../../src/agents/startJobInput';

describe('start job input', () => {
  it('bounds the prompt at 10,000 characters and names the bound', () => {
    assert.equal(validatePrompt('x'.repeat(10_000)), undefined);
    assert.match(validatePrompt('x'.repeat(10_001))!, /10,001 characters; the maximum is 10,000/);
    assert.match(validatePrompt('   ')!, /must not be empty/);
  });

  it('accepts comma-separated absolute http(s) URLs and names the bad one', () => {
    assert.deepEqual(parseUrls(' https://a.example/x , http://b.example ,'), { ok: true, urls: ['https://a.example/x', 'http://b.example'] });
    assert.deepEqual(parseUrls(''), { ok: true, urls: [] });
    const bad = parseUrls('https://a.example, ftp://b.example');
    assert.equal(bad.ok, false);
    assert.match(!bad.ok ? bad.message : '', /URL 2 "ftp:\/\/b\.example" is not an absolute http\(s\) URL/);
    assert.equal(parseUrls('example.com/page').ok, false);
  });

  it('takes the default ceiling when empty and rejects non-positive ones', () => {
    assert.deepEqual(parseMaxCredits('', 500), { ok: true, value: 500 });
    assert.deepEqual(parseMaxCredits(' 120 ', 500), { ok: true, value: 120 });
    assert.equal(parseMaxCredits('0', 500).ok, false);
    assert.equal(parseMaxCredits('ten', 500).ok, false);
  });

  it('keeps what was typed when the user cancels a later step, and pre-fills it next time', async () => {
    const draft = emptyDraft();
    const seen: InputStep[] = [];
    const answers = ['Find rate limits', 'https://a.example', undefined];
    const r = await askStartJob(async (s) => { seen.push(s); return answers.shift(); }, draft, 500);
    assert.equal(r, undefined);
    assert.deepEqual(draft, { prompt: 'Find rate limits', urls: 'https://a.example', maxCredits: '' });
    const again: InputStep[] = [];
    const r2 = await askStartJob(async (s) => { again.push(s); return s.value || '80'; }, draft, 500);
    assert.equal(again[0]!.value, 'Find rate limits');
    assert.equal(again[1]!.value, 'https://a.example');
    assert.deepEqual(r2, { prompt: 'Find rate limits', urls: ['https://a.example'], maxCredits: 80 });
  });

  it('re-asks with the value kept and the message shown when an answer is invalid', async () => {
    const draft = emptyDraft();
    const steps: InputStep[] = [];
    const answers = ['p', 'not a url', '', 'p', 'https://ok.example', ''];
    const r = await askStartJob(async (s) => { steps.push(s); return answers.shift(); }, draft, 500);
    assert.deepEqual(r, { prompt: 'p', urls: ['https://ok.example'], maxCredits: 500 });
    const second = steps[4]!;
    assert.equal(second.value, 'not a url');
    assert.match(second.initialError!, /not an absolute http\(s\) URL/);
  });

  it('maps service issues to the step they belong to', () => {
    assert.deepEqual(fieldOfIssues([{ field: 'urls[1]', message: 'bad url' }, { field: 'maxCredits', message: 'too small' }, { field: 'model', message: 'x' }]),
      { urls: 'bad url', maxCredits: 'too small' });
  });
});
