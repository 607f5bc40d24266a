// In a real extension host: chat answers (Open Answer, first in the end notification), Ask a
// Follow-up… from a job row (the service's suggestions as picks, the new turn under one thread row, a
// busy thread offering to follow its running turn), and an approval (a waiting row that never spins,
// Approve sending the run on to its end). Against the sandbox's production wire: threads, `mode:
// "chat"` and the `APPROVAL` prompt trigger (sandbox/README.md).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { AgentClient } from '../../src/api/agent/agentClient';
import { DevIndexClient } from '../../src/api/client';
import { agentDocumentPath } from '../../src/agents/agentDocuments';
import { createAgentsFeature, notifyEnds, type AgentsFeature } from '../../src/agents/agentsFeature';
import { JobNode, ThreadNode } from '../../src/agents/jobNode';
import { jobState } from '../../src/agents/jobState';
import { ApprovalNode } from '../../src/agents/placeholderNodes';
import { api, sandboxRequests, until, iconId, FakeNotifications, MemoryStorage } from './hostSupport';
import { HttpTransport } from '../../src/api/http';

describe('threads, chat answers and approvals', function () {
  this.timeout(180_000);
  const storage = new MemoryStorage();
  let client: DevIndexClient;
  let feature: AgentsFeature;
  let notifier: vscode.Disposable;
  const notes = new FakeNotifications();
  const followUps: Array<{ suggestions: Array<{ label?: string; prompt: string }>; value: string }> = [];
  let followUpAnswer: (o: { suggestions: Array<{ prompt: string }> }) => string | undefined = () => undefined;
  const revealed: string[] = [];
  let chatId = '';
  // How the user answers an approval (the quick pick and modal are replaced here): all calls by default.
  let approveWith: (
    job: unknown,
    p: { kind: string; calls: Array<{ id?: string }> },
  ) => { callIds?: string[]; always?: boolean; acceptTerms?: boolean } | undefined = () => ({});

  before(async () => {
    const a = await api();
    const key = process.env.DEVINDEX_TEST_KEY ?? (await a.apiKey.get());
    assert.ok(key, 'the runner provides the sandbox key (DEVINDEX_TEST_KEY)');
    client = new DevIndexClient({ transport: new HttpTransport(), baseUrl: a.baseUrl(), apiKey: () => key });
    const show = notes.show;
    feature = createAgentsFeature(
      storage,
      {
        backend: () => new AgentClient(client),
        hasKey: async () => true,
        defaultMaxCredits: () => 1000,
        // A waiting run says so only in its status: read it after 2 s of a quiet trace here (30 s in the editor).
        statusEveryMs: 2_000,
        ui: {
          followUp: async (o) => {
            followUps.push({ suggestions: o.suggestions, value: o.value });
            return followUpAnswer(o);
          },
          approve: async (job, p) => approveWith(job, p),
          show,
        },
      },
      async (id) => {
        revealed.push(id);
      },
    );
    notifier = notifyEnds(
      feature,
      async (id) => {
        revealed.push(id);
      },
      show,
    );
  });

  after(async () => {
    notifier?.dispose();
    feature?.dispose();
    await client?.close();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('a chat run: Open Answer is first in the end notification and opens the answer as a markdown preview', async function () {
    notes.press = (text, buttons) => (/explain retries/.test(text) ? buttons[0] : undefined);
    chatId = (await feature.commands['devIndex.agent.start']({
      prompt: 'Integration: explain retries',
      mode: 'chat',
      maxCredits: 1000,
    }))!;
    assert.ok(feature.store.get(chatId)?.threadId, 'the start opened a thread');
    const note = await until(
      "the chat run's end notification",
      () => notes.shown.find((s) => s.text.includes('explain retries')),
      (s) => s !== undefined,
      90_000,
    );
    assert.deepEqual(
      note!.buttons,
      ['Open Answer', 'Ask a Follow-up…', 'Show in Tree'],
      'Open Answer first, as Open Result is for data',
    );
    assert.equal(note!.chose, 'Open Answer');
    const tab = await until(
      'the answer preview tab',
      () =>
        vscode.window.tabGroups.all
          .flatMap((g) => g.tabs)
          .find((t) => /answer — Integration: explain retries/.test(t.label)),
      (t) => t !== undefined,
      15_000,
    );
    assert.match(tab!.label, /^Preview answer — Integration: explain retries/, 'rendered in the Markdown preview');
    const job = feature.store.get(chatId)!;
    assert.equal(job.mode, 'chat');
    assert.equal(job.kept?.answer, true, 'the answer is kept like a result (it survives expiry)');
    assert.match(
      String((await feature.tree.getChildren()).find((n) => n instanceof JobNode && n.jobId === chatId)?.contextValue),
      /;answer(;|$)/,
    );
    const text = await feature.content.provideTextDocumentContent(
      vscode.Uri.from({
        scheme: 'devindex-agent',
        path: agentDocumentPath({ kind: 'answer', jobId: chatId, label: 'explain retries' }),
      }),
      new vscode.CancellationTokenSource().token,
    );
    assert.match(text, /^# Integration: explain retries\n\n## Answer: /);
    assert.match(text, /```ts\n/, 'code blocks kept');
    const reqs = await sandboxRequests();
    assert.ok(
      reqs.some((r) => r.method === 'POST' && r.path === '/v2/agent' && (r.body as { mode?: string }).mode === 'chat'),
      'sent as mode "chat"',
    );
  });

  it('Ask a Follow-up… from the job row offers the suggestions; the new turn shows under one thread row, in order', async () => {
    const row = (await feature.tree.getChildren()).find(
      (n): n is JobNode => n instanceof JobNode && n.jobId === chatId,
    );
    assert.ok(row, 'the chat job is a plain row while it has one turn');
    assert.match(String(row.contextValue), /;followup(;|$)/);
    // SLOW (a run 20 times longer): the next test needs turn 2 still running, and a chat turn at the test sandbox's
    // speed ends about a second after it starts.
    followUpAnswer = (o) => `${o.suggestions[0]?.prompt} SLOW`;
    const turnId = await feature.commands['devIndex.agent.followUp']({ jobId: row.jobId });
    assert.ok(turnId && turnId !== chatId, 'a new turn was started');
    assert.ok(
      followUps[0]!.suggestions.length >= 2,
      `the service's suggestions are offered: ${JSON.stringify(followUps[0])}`,
    );
    const threadId = feature.store.get(chatId)!.threadId;
    const turn = feature.store.get(turnId)!;
    assert.equal(turn.threadId, threadId);
    assert.equal(turn.threadTurn, 2);
    const roots = await feature.tree.getChildren();
    const thread = roots.find((n): n is ThreadNode => n instanceof ThreadNode && n.threadId === threadId);
    assert.ok(thread, 'one thread row');
    assert.equal(
      roots.filter((n) => n instanceof JobNode && (n.jobId === chatId || n.jobId === turnId)).length,
      0,
      'the turns are not rows of their own',
    );
    assert.match(String(thread.description), /^running · 2 turns/);
    const turns = await feature.tree.getChildren(thread);
    assert.deepEqual(
      turns.map((t) => (t as JobNode).jobId),
      [chatId, turnId],
      'turn 1, then turn 2',
    );
    assert.match(String(turns[1]!.label), /^2\. /);
    assert.ok(revealed.includes(turnId), 'the new turn is shown in the tree');
    const reqs = await sandboxRequests();
    const sent = reqs
      .filter((r) => r.method === 'POST' && r.path === '/v2/agent')
      .map((r) => r.body as { threadId?: string; prompt?: string });
    assert.ok(
      sent.some((b) => b.threadId === threadId && b.prompt === `${followUps[0]!.suggestions[0]!.prompt} SLOW`),
      'sent with the thread id',
    );
  });

  it('a busy thread says a turn is still running and offers to follow it; the typed follow-up is kept', async () => {
    const threadId = feature.store.get(chatId)!.threadId!;
    const running = feature.store.jobs().find((j) => j.threadId === threadId && jobState(j) === 'running');
    assert.ok(running, 'turn 2 still runs');
    // The first job's row (turn 1) has ended: a follow-up is offered there, and the service answers 409.
    followUpAnswer = () => 'Integration: and one more thing';
    notes.press = (text, buttons) => (/still running/.test(text) ? buttons[0] : undefined);
    revealed.length = 0;
    const r = await feature.commands['devIndex.agent.followUp']({ jobId: chatId });
    assert.equal(r, undefined, 'nothing started');
    const note = notes.shown.find((s) => /still running/.test(s.text));
    assert.ok(note, `the busy thread is said: ${JSON.stringify(notes.shown.slice(-2))}`);
    assert.deepEqual(note.buttons, ['Follow It']);
    assert.deepEqual(revealed, [running.id], 'Follow It shows the running turn');
    followUpAnswer = () => undefined;
    await feature.commands['devIndex.agent.followUp']({ jobId: chatId });
    assert.equal(followUps.at(-1)!.value, 'Integration: and one more thing', 'the follow-up typed is offered again');
    await feature.commands['devIndex.agent.cancel'](running.id);
    await until(
      'turn 2 ends, cancelled',
      () => feature.store.get(running.id),
      (j) => j !== undefined && jobState(j) === 'cancelled',
      30_000,
    );
  });

  it('an approval: the run waits (never spinning) with each paid call and its estimate; Approve from its tree row starts the next turn, which ends with its paid calls', async () => {
    const id = (await feature.commands['devIndex.agent.start']({
      prompt: 'Integration: APPROVAL for two calls',
      maxCredits: 1000,
    }))!;
    const node = await until(
      'the run waits for an approval',
      async () => (await feature.tree.getChildren()).find((n): n is JobNode => n instanceof JobNode && n.jobId === id),
      (n) => n !== undefined && jobState(feature.store.get(id)!) === 'waiting',
      90_000,
    );
    assert.equal(iconId(node!), 'bell-dot', 'never the running spinner');
    assert.match(
      String(node!.description),
      /^waiting for approval of 2 paid calls \(at least 10 credits\): github issues\/create, github issues\/add-labels/,
    );
    assert.match(String(node!.contextValue), /;approvable(;|$)/);
    assert.match(
      String(node!.accessibilityInformation?.label),
      /^Waiting for approval of 2 paid calls \(at least 10 credits\): github issues\/create, github issues\/add-labels: agent job /,
      'the state first',
    );
    const children = await feature.tree.getChildren(node!);
    assert.ok(children[0] instanceof ApprovalNode, 'the first row under it says what it waits for');
    const calls = await feature.tree.getChildren(children[0]);
    assert.deepEqual(
      calls.map((c) => [String(c.label), String(c.description)]),
      [
        ['github issues/create', 'about 10 credits'],
        ['github issues/add-labels', 'no estimate'],
      ],
    );
    assert.ok(feature.store.run(id).polling, 'followed (slowly) while it waits');
    const p = feature.store.get(id)!.pendingApproval!;
    const first = p.calls[0]!.id!;
    approveWith = () => ({ callIds: [first] });
    revealed.length = 0;
    await sandboxRequests('DELETE');
    // The row's inline Approve passes the row itself.
    await feature.commands['devIndex.agent.approve'](node!);
    assert.notEqual(jobState(feature.store.get(id)!), 'waiting', 'no longer waiting, at once');
    const sent = (await sandboxRequests()).find((r) => r.method === 'POST' && r.path === '/v2/agent');
    assert.deepEqual(
      (sent?.body as { exchange?: unknown }).exchange,
      { approve: { approvalId: p.id, callIds: [first] } },
      'exchange.approve with the approval id and the chosen call',
    );
    const next = revealed[0];
    assert.ok(next && next !== id, 'the next turn is shown in the tree');
    assert.equal(feature.store.get(next)!.threadId, feature.store.get(id)!.threadId, 'in the same thread');
    await until(
      'the next turn completes',
      () => feature.store.get(next),
      (j) => j !== undefined && jobState(j) === 'completed',
      90_000,
    );
    // What it paid comes with the run's final record, which the store reads after the trace says the run finished
    // (the row may say `completed` a read before it says the paid calls).
    const turnNode = await until(
      'the row says what it paid',
      () => feature.tree.jobNode(next)!,
      (n) => /paid call/.test(String(n.description)),
      30_000,
    );
    const under = await feature.tree.getChildren(turnNode);
    assert.ok(
      under.some((c) => /^Paid calls: 1 paid call, 10 credits$/.test(String(c.label))),
      under.map((c) => String(c.label)).join(' | '),
    );
  });

  it("terms: the turn that ended waiting shows each provider's terms as a link; Approve accepts them (terms/accept) only with the user's agreement, then approves", async () => {
    const id = (await feature.commands['devIndex.agent.start']({
      prompt: 'Integration: APPROVAL-TERMS providers',
      mode: 'chat',
      maxCredits: 1000,
    }))!;
    await until(
      'the run waits for terms',
      () => feature.store.get(id),
      (j) => j !== undefined && jobState(j) === 'waiting',
      90_000,
    );
    assert.equal(feature.store.get(id)!.status, 'completed', 'the turn ended waiting');
    const row = feature.tree.revealTarget(id)!;
    const approval = (await feature.tree.getChildren(row)).find((c): c is ApprovalNode => c instanceof ApprovalNode)!;
    const terms = await feature.tree.getChildren(approval);
    assert.ok(terms.length >= 1);
    for (const t of terms) {
      assert.match(String(t.label), /data terms, version /);
      assert.equal(t.command?.command, 'vscode.open', 'a link, opened only when the row is clicked');
      assert.match(String((t.command?.arguments?.[0] as vscode.Uri).scheme), /^https$/);
    }
    await sandboxRequests('DELETE');
    approveWith = () => undefined;
    await feature.commands['devIndex.agent.approve']({ jobId: id });
    assert.equal(
      (await sandboxRequests()).filter((r) => r.method === 'POST').length,
      0,
      'not agreed: nothing accepted, nothing approved',
    );
    assert.equal(jobState(feature.store.get(id)!), 'waiting');
    approveWith = () => ({ acceptTerms: true });
    await feature.commands['devIndex.agent.approve']({ jobId: id });
    const posts = (await sandboxRequests()).filter((r) => r.method === 'POST').map((r) => r.path);
    // globex-news publishes no digest: its terms/show runs first, then both accepts, then the approval.
    assert.deepEqual(posts, ['/v2/scrape', '/v2/scrape', '/v2/agent'], 'terms shown and accepted first, then approved');
    assert.notEqual(jobState(feature.store.get(id)!), 'waiting');
  });

  /** A run that ended waiting for the one provider the trigger names, approved with the user's agreement. */
  async function approveTermsOf(trigger: string): Promise<{ id: string; posts: string[] }> {
    const id = (await feature.commands['devIndex.agent.start']({
      prompt: `Integration: APPROVAL-TERMS ${trigger}`,
      mode: 'chat',
      maxCredits: 1000,
    }))!;
    await until(
      'the run waits for terms',
      () => feature.store.get(id),
      (j) => j !== undefined && jobState(j) === 'waiting',
      90_000,
    );
    await sandboxRequests('DELETE');
    approveWith = () => ({ acceptTerms: true });
    await feature.commands['devIndex.agent.approve']({ jobId: id });
    const posts = (await sandboxRequests()).filter((r) => r.method === 'POST').map((r) => r.path);
    return { id, posts };
  }

  it('terms: a terms/accept that failed inside a 200 says so with Show the Terms Again; no approval is sent; the run still waits', async () => {
    const before = notes.shown.length;
    const { id, posts } = await approveTermsOf('TERMS-CHANGED');
    assert.deepEqual(posts, ['/v2/scrape'], 'the approval is never sent after a failed acceptance');
    const said = notes.shown.slice(before).find((n) => /not accepted/.test(n.text));
    assert.ok(said, JSON.stringify(notes.shown.slice(before)));
    assert.equal(said.severity, 'error');
    assert.match(said.text, /initech-maps: Terms changed \(terms_changed, HTTP 409\); nothing was approved/);
    assert.deepEqual(said.buttons, ['Show the Terms Again', 'Open the Terms']);
    assert.equal(jobState(feature.store.get(id)!), 'waiting');
  });

  it('terms: a 503 is retried with the same x-request-id and the run is approved; AGENT_INDEX_ONLY sends no approval', async () => {
    const ok = await approveTermsOf('TERMS-UNAVAILABLE');
    assert.deepEqual(ok.posts, ['/v2/scrape', '/v2/scrape', '/v2/agent'], 'the 503, its retry, then the approval');
    const refused = await approveTermsOf('TERMS-UNVERIFIED');
    assert.deepEqual(refused.posts, ['/v2/scrape'], 'no approval after the refusal');
    assert.equal(jobState(feature.store.get(refused.id)!), 'waiting');
  });
});
