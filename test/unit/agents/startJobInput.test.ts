import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import {
  askStartJob,
  BACK,
  draftFrom,
  emptyDraft,
  fieldOfIssues,
  type InputStep,
  maxCreditsOf,
  type PickStep,
  urlsOf,
} from '../../../src/agents/startJobInput';
import { fieldIssue } from '../../../src/api/agent/submitSchema';

describe('start job input', () => {
  it("checks each step with the submission schema's field check: its messages name the field and the bound", async () => {
    const steps: InputStep[] = [];
    await askStartJob(
      async (s) => {
        if (s.type !== 'pick') steps.push(s);
        return undefined;
      },
      emptyDraft(),
      500,
    );
    const prompt = steps[0]!;
    assert.equal(prompt.validate('x'.repeat(10_000)), undefined);
    assert.match(prompt.validate('x'.repeat(10_001))!, /^prompt is 10001 characters; the maximum is 10,000/);
    assert.equal(prompt.validate('   '), fieldIssue('prompt', '   '));
    assert.match(prompt.validate('   ')!, /prompt must not be empty/);
  });

  it('reads comma-separated URLs; the schema names the bad one', () => {
    assert.deepEqual(urlsOf(' https://a.example/x , http://b.example ,'), ['https://a.example/x', 'http://b.example']);
    assert.deepEqual(urlsOf(''), []);
    assert.equal(fieldIssue('urls', urlsOf('https://a.example, http://b.example')), undefined);
    assert.match(
      fieldIssue('urls', urlsOf('https://a.example, ftp://b.example'))!,
      /urls\[1\] "ftp:\/\/b\.example" is not an absolute http\(s\) URL/,
    );
    assert.ok(fieldIssue('urls', urlsOf('example.com/page')));
  });

  it('takes the default ceiling when empty; the schema refuses non-positive ones and says what was typed', () => {
    assert.equal(maxCreditsOf('', 500), 500);
    assert.equal(maxCreditsOf(' 120 ', 500), 120);
    assert.match(
      fieldIssue('maxCredits', maxCreditsOf('0', 500))!,
      /maxCredits must be a number greater than 0; got 0/,
    );
    assert.match(fieldIssue('maxCredits', maxCreditsOf('ten', 500))!, /got "ten"/);
  });

  it('keeps what was typed when the user cancels a later step, and pre-fills it next time', async () => {
    const draft = emptyDraft();
    const answers: Array<string | undefined> = ['Find rate limits', 'https://a.example', undefined];
    const r = await askStartJob(async () => answers.shift(), draft, 500);
    assert.equal(r, undefined);
    assert.deepEqual(draft, { ...emptyDraft(), prompt: 'Find rate limits', urls: 'https://a.example' });
    const again: Array<InputStep | PickStep> = [];
    const r2 = await askStartJob(
      async (s) => {
        again.push(s);
        return s.step === 3 ? '80' : s.value;
      },
      draft,
      500,
    );
    assert.equal(again[0]!.value, 'Find rate limits');
    assert.equal(again[1]!.value, 'https://a.example');
    assert.deepEqual(r2, { prompt: 'Find rate limits', urls: ['https://a.example'], maxCredits: 80, model: 'spark-2' });
  });

  it('goes Back to the previous step with its value kept, and says "credit ceiling" in words', async () => {
    const draft = emptyDraft();
    const seen: Array<InputStep | PickStep> = [];
    const answers: Array<string | typeof BACK> = [
      'first prompt',
      'https://a.example',
      BACK,
      BACK,
      'second prompt',
      'https://b.example',
      '120',
      'spark-1-pro',
      'high',
      'chat',
      '',
    ];
    const r = await askStartJob(
      async (s) => {
        seen.push(s);
        return answers.shift();
      },
      draft,
      500,
    );
    assert.deepEqual(
      seen.map((s) => s.step),
      [1, 2, 3, 2, 1, 2, 3, 4, 5, 6, 7],
    );
    assert.equal(seen[3]!.value, 'https://a.example', 'Back keeps what was typed');
    assert.equal(seen[4]!.value, 'first prompt');
    assert.match((seen[2] as InputStep).prompt, /^Credit ceiling: /);
    assert.doesNotMatch((seen[2] as InputStep).prompt, /maxCredits/);
    assert.deepEqual(r, {
      prompt: 'second prompt',
      urls: ['https://b.example'],
      maxCredits: 120,
      model: 'spark-1-pro',
      effort: 'high',
      mode: 'chat',
    });
  });

  it('asks what the run gives back: Ask sends mode chat, Collect data sends extract, the default leaves mode out', async () => {
    const run = async (mode: string) => {
      let pick: PickStep | undefined;
      const r = await askStartJob(
        async (s) => {
          if (s.step === 6) {
            pick = s as PickStep;
            return mode;
          }
          return s.step === 1 ? 'p' : s.value;
        },
        emptyDraft(),
        500,
      );
      return { r, pick: pick! };
    };
    const chat = await run('chat');
    assert.deepEqual(
      chat.pick.items.map((i) => [i.label, i.value]),
      [
        ['Ask (an answer in words)', 'chat'],
        ['Collect data (JSON)', 'extract'],
        ["The service's default", ''],
      ],
    );
    assert.equal(chat.pick.value, '', 'the service default is chosen until the user picks');
    assert.equal(chat.r?.mode, 'chat');
    assert.equal((await run('extract')).r?.mode, 'extract');
    assert.equal('mode' in (await run('')).r!, false, 'mode left out');
  });

  it('offers the known models (retired ones said so) and any from the setting, and the three efforts', async () => {
    const picks: PickStep[] = [];
    await askStartJob(
      async (s) => {
        if (s.type === 'pick') picks.push(s);
        return s.step === 1 ? 'p' : s.value;
      },
      emptyDraft(),
      500,
      {},
      ['spark-3-preview'],
    );
    assert.deepEqual(
      picks[0]!.items.map((i) => i.value),
      ['spark-2', 'spark-1-pro', 'spark-1-mini', 'spark-3-preview'],
    );
    assert.match(picks[0]!.items[1]!.description!, /retired name; runs on spark-2/);
    assert.deepEqual(
      picks[1]!.items.map((i) => i.value),
      ['', 'low', 'medium', 'high'],
    );
  });

  it('builds what was typed without checking it again (the client checks); a refused field reopens its step', async () => {
    const built = await askStartJob(
      async (s) => (s.step === 1 ? 'p' : s.step === 2 ? 'not a url' : s.value),
      emptyDraft(),
      500,
    );
    assert.deepEqual(built, { prompt: 'p', urls: ['not a url'], maxCredits: 500, model: 'spark-2' });
    const draft = { ...emptyDraft(), prompt: 'p', urls: 'not a url' };
    const steps: Array<InputStep | PickStep> = [];
    const answers = ['https://ok.example', '', 'spark-2', '', '', ''];
    const r = await askStartJob(
      async (s) => {
        steps.push(s);
        return answers.shift();
      },
      draft,
      500,
      { urls: 'urls[0] "not a url" is not an absolute http(s) URL' },
    );
    assert.deepEqual(r, { prompt: 'p', urls: ['https://ok.example'], maxCredits: 500, model: 'spark-2' });
    assert.equal(steps[0]!.step, 2, 'the flow starts again at the step with the problem');
    assert.equal(steps[0]!.value, 'not a url');
    assert.match(steps[0]!.initialError!, /not an absolute http\(s\) URL/);
  });

  it('prefills Start Again… from a job', () => {
    assert.deepEqual(
      draftFrom({
        prompt: 'p',
        urls: ['https://a.example', 'https://b.example'],
        maxCredits: 100,
        model: 'spark-2',
        effort: 'low',
      }),
      {
        prompt: 'p',
        urls: 'https://a.example, https://b.example',
        maxCredits: '100',
        model: 'spark-2',
        effort: 'low',
        mode: '',
        paid: '',
      },
    );
    assert.equal(draftFrom({ prompt: 'p', mode: 'chat' }).mode, 'chat', 'a chat job starts again as a chat job');
    assert.equal(draftFrom({ prompt: 'p', mode: 'weird' }).mode, '', 'an unknown mode is not sent');
  });

  it('paid tool calls: an optional last step, off by default; each choice sends its exchange settings', async () => {
    const run = async (paid: string, mode = 'chat') => {
      let pick: PickStep | undefined;
      const r = await askStartJob(
        async (s) => {
          if (s.step === 7) {
            pick = s as PickStep;
            return paid;
          }
          if (s.step === 6) return mode;
          return s.step === 1 ? 'p' : s.value;
        },
        emptyDraft(),
        500,
      );
      return { r, pick: pick! };
    };
    const off = await run('');
    assert.equal(off.pick.value, '', 'off until the user picks');
    assert.equal(off.pick.totalSteps, 7);
    assert.equal('exchange' in off.r!, false, 'off: nothing sent');
    assert.deepEqual(
      off.pick.items.map((i) => i.value),
      ['', 'on', 'askTerms', 'approve'],
    );
    assert.deepEqual((await run('on')).r?.exchange, { onTermsRequired: 'skip' });
    assert.deepEqual((await run('askTerms')).r?.exchange, { onTermsRequired: 'ask' });
    assert.deepEqual((await run('approve')).r?.exchange, { requireApproval: true, onTermsRequired: 'ask' });
  });

  it('maps service issues to the step they belong to', () => {
    assert.deepEqual(
      fieldOfIssues([{ field: 'exchange.requireApproval', message: 'needs mode chat' }]),
      { paid: 'needs mode chat' },
      'a paid-call refusal goes to the paid-call step',
    );
    assert.deepEqual(
      fieldOfIssues([
        { field: 'urls[1]', message: 'bad url' },
        { field: 'maxCredits', message: 'too small' },
        { field: 'model', message: 'x' },
        { field: 'other', message: 'y' },
      ]),
      { urls: 'bad url', maxCredits: 'too small', model: 'x' },
    );
  });
});
