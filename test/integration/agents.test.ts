// Agent jobs inside a real extension host, against the sandbox the runner started (its URL is the
// extension's devIndex.baseUrl, its key DEVINDEX_TEST_KEY). The feature is built with
// createAgentsFeature over a memory storage, so the suite can "reload" by building it again from
// the same storage; the tree is read through the real TreeDataProvider with real TreeItems.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { AgentClient } from '../../src/api/agent/agentClient';
import { DevIndexClient } from '../../src/api/client';
import { agentDocumentPath } from '../../src/agents/agentDocuments';
import { AgentNode } from '../../src/agents/agentNode';
import { EventNode } from '../../src/agents/eventNode';
import { createAgentsFeature, notifyEnds, type AgentsFeature } from '../../src/agents/agentsFeature';
import { JobNode } from '../../src/agents/jobNode';
import type { Timers } from '../../src/agents/jobPoller';
import type { TreeNode } from '../../src/agents/jobsTreeProvider';
import { api, until, iconId, FakeNotifications, MemoryStorage } from './hostSupport';
import { HttpTransport } from '../../src/api/http';

async function jobNode(feature: AgentsFeature, id: string): Promise<JobNode | undefined> {
  const roots = await feature.tree.getChildren();
  return roots.find((n): n is JobNode => n instanceof JobNode && n.jobId === id);
}

async function descendants(feature: AgentsFeature, node: TreeNode): Promise<TreeNode[]> {
  const out: TreeNode[] = [];
  for (const c of await feature.tree.getChildren(node)) out.push(c, ...(await descendants(feature, c)));
  return out;
}

describe('agent jobs', function () {
  this.timeout(120_000);
  const storage = new MemoryStorage();
  let client: DevIndexClient;
  let feature: AgentsFeature;
  let completedId: string;
  let cancelledId: string;

  const build = (timers?: Timers): AgentsFeature =>
    createAgentsFeature(storage, {
      backend: () => new AgentClient(client),
      hasKey: async () => true,
      defaultMaxCredits: () => 1000,
      ...(timers ? { timers } : {}),
    });

  before(async () => {
    const a = await api();
    const key = process.env.DEVINDEX_TEST_KEY ?? (await a.apiKey.get());
    assert.ok(key, 'the runner provides the sandbox key (DEVINDEX_TEST_KEY)');
    client = new DevIndexClient({ transport: new HttpTransport(), baseUrl: a.baseUrl(), apiKey: () => key });
    feature = build();
  });

  after(async () => {
    feature?.dispose();
    await client?.close();
  });

  it('registers the agent commands in the real extension', async () => {
    const all = await vscode.commands.getCommands(true);
    for (const id of ['devIndex.agent.start', 'devIndex.agent.cancel', 'devIndex.agent.refresh'])
      assert.ok(all.includes(id), `${id} is registered`);
  });

  it('starts two jobs, shows them running, cancels one', async () => {
    completedId = (await feature.commands['devIndex.agent.start']({
      prompt: 'Integration: collect findings',
      maxCredits: 1000,
    }))!;
    cancelledId = (await feature.commands['devIndex.agent.start']({
      prompt: 'Integration: SLOW, to be cancelled',
      maxCredits: 1000,
    }))!;
    assert.match(completedId, /^[0-9a-f-]{36}$/);
    const running = await jobNode(feature, completedId);
    assert.ok(running, 'the job is in the tree');
    assert.equal(iconId(running), 'sync~spin');
    assert.match(String(running.contextValue), /;cancellable(;|$)/);
    // Let the run produce its first events, then cancel the second job through the command. Its prompt
    // says SLOW (a run 20 times longer) so it is still running at any sandbox speed when the cancel lands.
    await until(
      'first events of the job to cancel',
      () => feature.store.run(cancelledId).events.length,
      (n) => n > 0,
      20_000,
    );
    await feature.commands['devIndex.agent.cancel'](cancelledId);
    const cancelled = await until(
      'the cancelled job ends',
      () => jobNode(feature, cancelledId),
      (n) => n !== undefined && iconId(n) === 'circle-slash',
      30_000,
    );
    assert.doesNotMatch(String(cancelled!.contextValue), /cancellable/);
    assert.match(String(cancelled!.description), /^cancelled · \d+ s · (\d+ credits spent|0 \/ 1000 credits)$/);
  });

  it('sees the other job finish with its agents, nested subagents and events in the tree', async () => {
    const done = await until(
      'the job completes',
      () => jobNode(feature, completedId),
      (n) => n !== undefined && iconId(n) === 'pass',
      60_000,
    );
    // `followup` when the service opened a thread for it (production).
    assert.match(String(done!.contextValue), /^job;completed;result;trace(;followup)?$/);
    assert.match(
      String(done!.description),
      /^completed · \d+ s · \d+ \/ 1000 credits$/,
      'state first, then duration and credits',
    );
    assert.match(
      String(done!.accessibilityInformation?.label),
      /^Completed: agent job .+, \d+ s, \d+ \/ 1000 credits$/,
      'the accessible name starts with the state',
    );
    const all = await descendants(feature, done!);
    const agents = all.filter((n): n is AgentNode => n instanceof AgentNode);
    const orchestrator = agents.find((a) => a.agent.agent.role === 'orchestrator');
    assert.ok(orchestrator, 'an orchestrator node');
    assert.match(
      String(orchestrator.accessibilityInformation?.label),
      /^Completed: agent /,
      "an agent row's name starts with its state",
    );
    const nested = agents.find((a) => a.agent.children.length > 0 && a.agent.agent.role === 'subagent');
    assert.ok(nested, 'a subagent with a subagent of its own');
    const artifact = all.find((n): n is EventNode => n instanceof EventNode && n.snapshot?.kind === 'json');
    assert.ok(artifact, 'an artifact.updated event with a snapshot');
    assert.match(String(artifact.contextValue), /;snapshot(;|$)/);
    assert.match(
      String(artifact.accessibilityInformation?.label),
      /^Updated: artifact /,
      "a trace row's name starts with what the event did",
    );
    const uri = vscode.Uri.from({
      scheme: 'devindex-agent',
      path: agentDocumentPath({
        kind: 'snapshot',
        jobId: completedId,
        snapshotId: artifact.snapshot!.snapshotId,
        artifactKind: 'json',
      }),
    });
    const text = await feature.content.provideTextDocumentContent(uri, new vscode.CancellationTokenSource().token);
    assert.doesNotThrow(() => JSON.parse(text), `the snapshot is pretty JSON: ${text.slice(0, 200)}`);
    const result = await feature.content.provideTextDocumentContent(
      vscode.Uri.from({
        scheme: 'devindex-agent',
        path: agentDocumentPath({ kind: 'result', jobId: completedId, label: 'collect findings' }),
      }),
      new vscode.CancellationTokenSource().token,
    );
    assert.ok(Object.keys(JSON.parse(result)).length > 0, 'the result has data');
  });

  it('Open Result opens the result read-only as "result — <job label>.json"', async () => {
    await feature.commands['devIndex.agent.openResult'](completedId);
    const editor = await until(
      'the result editor',
      () => vscode.window.activeTextEditor,
      (e) => e?.document.uri.scheme === 'devindex-agent',
      10_000,
    );
    const doc = editor!.document;
    assert.equal(doc.uri.path.slice(doc.uri.path.lastIndexOf('/') + 1), 'result — Integration: collect findings.json');
    assert.equal(doc.languageId, 'json');
    // The editor's document is served by the extension's own provider; this suite's feature (its own
    // store, built over test storage) serves the same URI with the job it knows.
    const text = await feature.content.provideTextDocumentContent(doc.uri, new vscode.CancellationTokenSource().token);
    const data = JSON.parse(text) as { items?: unknown[] };
    assert.ok(Array.isArray(data.items) && data.items.length > 0, 'the data of the run');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('finds both jobs again after a reload, with their trace read again on expand', async () => {
    await feature.store.flush();
    feature.dispose();
    feature = build();
    const done = await jobNode(feature, completedId);
    const cancelled = await jobNode(feature, cancelledId);
    assert.ok(done && cancelled, 'both jobs are back');
    assert.equal(iconId(done), 'pass');
    assert.equal(iconId(cancelled), 'circle-slash');
    assert.equal(feature.store.run(completedId).polling, false, 'no polling for ended jobs after the reload');
    await feature.tree.getChildren(done);
    const children = await until(
      'the trace is read on expand',
      () => feature.tree.getChildren(done),
      (c) => c.some((n) => n instanceof AgentNode),
      15_000,
    );
    assert.ok(children.length > 0);
  });

  it('shows a job that only the service lists (started elsewhere) after a refresh', async () => {
    const elsewhere = new AgentClient(client);
    const { id } = await elsewhere.submit({ prompt: 'Integration: started in another front end', maxCredits: 1000 });
    assert.equal(await jobNode(feature, id), undefined, 'not known before the list is read');
    await feature.commands['devIndex.agent.refresh']();
    const node = await until(
      'the listed job in the tree',
      () => jobNode(feature, id),
      (n) => n !== undefined,
      15_000,
    );
    assert.equal(feature.store.get(id)!.origin, 'service');
    assert.match(String(node!.label), /^Integration: started…$/, 'the prompt, cut short');
    assert.match(
      String(node!.accessibilityInformation?.label),
      /^(Running|Completed): agent job Integration: started in another front end/,
      'the state first, then the prompt',
    );
  });

  it('keeps a finished result; after the service lets the job expire, the restored job still opens it', async () => {
    const sandbox = process.env.DEVINDEX_SANDBOX_URL;
    assert.ok(sandbox, 'the runner provides DEVINDEX_SANDBOX_URL');
    const id = (await feature.commands['devIndex.agent.start']({
      prompt: 'Integration: keep my result',
      maxCredits: 1000,
    }))!;
    // The sandbox's test control: this job expires in a minute instead of in a day; the record the editor reads
    // (and keeps) says so.
    const expire = async (inMs: number): Promise<number> => {
      const ctl = await fetch(`${sandbox}/__sandbox/agent/expire`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jobId: id, inMs }),
      });
      assert.equal(ctl.status, 200);
      return Date.parse(((await ctl.json()) as { expiresAt: string }).expiresAt);
    };
    const expiresAt = await expire(60_000);
    await until(
      'the job completes and its result is kept',
      () => feature.store.get(id),
      (j) => j?.kept?.result === true,
      30_000,
    );
    assert.equal(feature.store.get(id)!.expiresAt, new Date(expiresAt).toISOString(), 'the kept record has the expiry');
    await feature.store.flush();
    feature.dispose();
    // Time is the test's: the service lets the job go now, and the restored editor's clock is past the expiry.
    await expire(0);
    const later = expiresAt - Date.now() + 1_000;
    feature = build({
      now: () => Date.now() + later,
      setTimeout: (fn, ms) => setTimeout(fn, ms),
      clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
    });
    const text = await feature.content.provideTextDocumentContent(
      vscode.Uri.from({ scheme: 'devindex-agent', path: `/${id}/result/result — keep my result.json` }),
      new vscode.CancellationTokenSource().token,
    );
    const data = JSON.parse(text) as { items?: unknown[] };
    assert.ok(Array.isArray(data.items) && data.items.length > 0, `the kept result opens: ${text.slice(0, 200)}`);
    const node = await jobNode(feature, id);
    assert.equal(feature.store.get(id)!.expired, true, 'the 404 after expiry reads as expired');
    assert.equal(iconId(node!), 'history');
    assert.match(String(node!.description), /^expired on .+ · result kept$/);
    assert.match(String(node!.contextValue), /;result(;|$)/, 'Open Result is still offered');
  });
});

describe('agent job notifications and palette picks', function () {
  this.timeout(120_000);
  const storage = new MemoryStorage();
  let client: DevIndexClient;
  let feature: AgentsFeature;
  let notifier: vscode.Disposable;
  /** Every end-of-run notification, with its buttons, and the button the "user" chose. */
  const notes = new FakeNotifications();
  /** The steps of the start flow as they were shown, with the value each was filled with. */
  const steps: Array<{ prompt: string; value: string }> = [];
  let answer: (step: { value: string }, n: number) => string | undefined = () => undefined;
  const picks: Array<{ title: string; ids: string[] }> = [];
  let choose: (ids: string[]) => string | undefined = () => undefined;

  before(async () => {
    const a = await api();
    const key = process.env.DEVINDEX_TEST_KEY ?? (await a.apiKey.get());
    assert.ok(key, 'the runner provides the sandbox key (DEVINDEX_TEST_KEY)');
    client = new DevIndexClient({ transport: new HttpTransport(), baseUrl: a.baseUrl(), apiKey: () => key });
    feature = createAgentsFeature(storage, {
      backend: () => new AgentClient(client),
      hasKey: async () => true,
      defaultMaxCredits: () => 1000,
      ui: {
        ask: async (step) => {
          steps.push({ prompt: step.type === 'pick' ? step.placeHolder : step.prompt, value: step.value });
          return answer(step, steps.length);
        },
        pick: async (items, title) => {
          const ids = items.map((i) => i.job.id);
          picks.push({ title, ids });
          const id = choose(ids);
          return items.find((i) => i.job.id === id);
        },
      },
    });
    notifier = notifyEnds(feature, async () => {}, notes.show);
  });

  after(async () => {
    notifier?.dispose();
    feature?.dispose();
    await client?.close();
  });

  it('start → completed notification → Open Result opens "result — <job label>.json"', async () => {
    notes.press = (text, buttons) => (/Notify me when done/.test(text) ? buttons[0] : undefined);
    const id = (await feature.commands['devIndex.agent.start']({
      prompt: 'Integration: Notify me when done',
      maxCredits: 1000,
    }))!;
    const note = await until(
      'the completed notification',
      () => notes.shown.find((s) => s.text.includes('Notify me when done')),
      (s) => s !== undefined,
      60_000,
    );
    assert.equal(note!.severity, 'info');
    assert.match(note!.text, /^Agent job "Integration: Notify me when done" completed using \d+ credits\.$/);
    assert.deepEqual(note!.buttons, ['Open Result', 'Show in Tree'], 'Open Result first, Show in Tree second');
    assert.equal(note!.chose, 'Open Result');
    const editor = await until(
      'the result editor the button opened',
      () => vscode.window.activeTextEditor,
      (e) => e?.document.uri.scheme === 'devindex-agent' && e.document.uri.path.includes(id),
      15_000,
    );
    const path = editor!.document.uri.path;
    assert.equal(path.slice(path.lastIndexOf('/') + 1), 'result — Integration: Notify me when done.json');
    const text = await feature.content.provideTextDocumentContent(
      editor!.document.uri,
      new vscode.CancellationTokenSource().token,
    );
    assert.ok(
      ((JSON.parse(text) as { items?: unknown[] }).items ?? []).length > 0,
      `the result of the run: ${text.slice(0, 200)}`,
    );
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('refused → Start Again… opens the start flow filled with the prompt, the URLs and the ceiling', async () => {
    notes.press = (text) => (/declined/.test(text) ? 'Start Again…' : undefined);
    steps.length = 0;
    // Step 1 to 3 are read and accepted as filled; the flow is cancelled at the model step.
    answer = (step, n) => (n <= 3 ? step.value : undefined);
    const prompt = 'Integration: REFUSE to do this';
    await feature.commands['devIndex.agent.start']({
      prompt,
      urls: ['https://example.com/a', 'https://example.com/b'],
      maxCredits: 700,
    });
    const note = await until(
      'the refused notification',
      () => notes.shown.find((s) => s.text.includes('REFUSE to do this')),
      (s) => s !== undefined,
      60_000,
    );
    assert.equal(note!.severity, 'warning');
    assert.equal(
      note!.text,
      'The agent declined job "Integration: REFUSE to do this" and it is not billed; rephrase the prompt and start it again.',
    );
    assert.deepEqual(note!.buttons, ['Start Again…', 'Show in Tree']);
    await until(
      'the start flow reaches the model step',
      () => steps.length,
      (n) => n >= 4,
      15_000,
    );
    assert.deepEqual(
      steps.slice(0, 3).map((s) => s.value),
      [prompt, 'https://example.com/a, https://example.com/b', '700'],
      'prompt, URLs and ceiling prefilled',
    );
    assert.match(steps[2]!.prompt, /Credit ceiling/);
  });

  it('credit limit reached → Start Again… offers a higher ceiling', async () => {
    notes.press = (text) => (/Tight budget/.test(text) ? 'Start Again…' : undefined);
    steps.length = 0;
    // Prompt and URLs accepted as filled; the flow is cancelled on the ceiling step once it has been notes.shown.
    answer = (step, n) => (n <= 2 ? step.value : undefined);
    await feature.commands['devIndex.agent.start']({ prompt: 'Integration: Tight budget', maxCredits: 10 });
    const note = await until(
      'the credit-limit notification',
      () => notes.shown.find((s) => s.text.includes('Tight budget')),
      (s) => s !== undefined,
      60_000,
    );
    assert.ok(note!.buttons.includes('Start Again…'), `buttons: ${JSON.stringify(note!.buttons)}`);
    await until(
      'the start flow reaches the ceiling step',
      () => steps.length,
      (n) => n >= 3,
      15_000,
    );
    assert.equal(steps[0]!.value, 'Integration: Tight budget');
    assert.equal(steps[2]!.value, '20', 'twice the ceiling the run ran out of');
  });

  it('Cancel from the palette lists only running jobs, and cancels the one picked', async () => {
    const slow = (await feature.commands['devIndex.agent.start']({
      prompt: 'Integration: SLOW pick me to cancel',
      maxCredits: 1000,
    }))!;
    const ended = feature.store.jobs().filter((j) => j.id !== slow);
    assert.ok(ended.length >= 3, 'the jobs of the earlier tests are in the list');
    await until(
      'the earlier jobs have ended',
      () => feature.store.jobs().filter((j) => j.id !== slow && feature.store.run(j.id).polling).length,
      (n) => n === 0,
      60_000,
    );
    picks.length = 0;
    choose = (ids) => ids[0];
    await feature.commands['devIndex.agent.cancel']();
    assert.equal(picks.length, 1, 'one pick was shown');
    assert.equal(picks[0]!.title, 'Cancel which running agent job?');
    assert.deepEqual(picks[0]!.ids, [slow], 'only the running job is offered');
    const node = await until(
      'the picked job ends as cancelled',
      () => jobNode(feature, slow),
      (n) => n !== undefined && iconId(n) === 'circle-slash',
      30_000,
    );
    assert.match(String(node!.description), /^cancelled/);
    // With nothing running, the command says so instead of showing an empty pick.
    picks.length = 0;
    await feature.commands['devIndex.agent.cancel']();
    assert.equal(picks.length, 0, 'no pick when no job is running');
  });
});
