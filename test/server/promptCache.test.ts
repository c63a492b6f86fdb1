// What keeps a provider's prompt cache serving a thread, through the real server and the scripted
// model: the system prompt and the tools are the same bytes in every request (plan mode, a policy
// change, a restart and a compaction included), each request's input extends the previous one,
// a changed setting is appended as a context update, and a resumed thread runs with the settings
// its turns set, so it adds nothing.
import { strict as assert } from 'node:assert';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { useModelServer } from '../fixtures/modelServer/server';
import type { RecordedRequest } from '../fixtures/modelServer/scenario';
import {
  agentEnv,
  agentHome,
  contextMessagesOf,
  instructionsOf,
  newestContextOf,
  runTurn,
  startThread,
  startTurn,
  turnCompleted,
} from '../support/agent';
import { assertEachExtendsPrevious } from '../support/referenceCalls';
import { tempDir, useServers } from '../support/serverProcess';
import { until } from '../support/until';

const PLAN_MODE = { mode: 'plan', settings: { model: 'test-model', developer_instructions: null } };

describe('prompt caching', () => {
  const model = useModelServer();
  const start = useServers();

  const toolsOf = (request: RecordedRequest) => JSON.stringify(request.body.tools);

  it('keeps the prompt and tools fixed and only appends, across a policy change, plan mode, a restart and a compaction', async () => {
    const home = agentHome('responses', model.baseUrl);
    const cwd = tempDir('threadline-cwd-');
    writeFileSync(join(cwd, 'AGENTS.md'), 'Keep it short.\n');
    const first = await start(home, 'threadline_vscode', agentEnv, { experimentalApi: true });
    const threadId = await startThread(first, cwd);
    model.script(
      { output: [{ text: 'One.' }] },
      { output: [{ text: 'Two.' }] },
      { output: [{ text: 'Three.' }] },
    );
    assert.equal((await runTurn(first, threadId, 'one')).status, 'completed');
    const never = await startTurn(first, threadId, 'two', { approvalPolicy: 'never' });
    await turnCompleted(first, never.id);
    const planned = await startTurn(first, threadId, 'three', { collaborationMode: PLAN_MODE });
    await turnCompleted(first, planned.id);
    await first.stop();

    const second = await start(home, 'threadline_vscode', agentEnv, { experimentalApi: true });
    await second.call('thread/resume', { threadId });
    model.script({ output: [{ text: 'Four.' }] }, { output: [{ text: 'Summary of it all.' }] });
    assert.equal((await runTurn(second, threadId, 'four')).status, 'completed');
    await second.call('thread/compact/start', { threadId });
    await until(() => second.notifications('turn/completed').length === 2);

    const requests = model.requests;
    assert.equal(requests.length, 5);
    for (const request of requests.slice(1)) {
      assert.equal(instructionsOf(request), instructionsOf(requests[0]!), 'the same system prompt');
      assert.equal(toolsOf(request), toolsOf(requests[0]!), 'the same tools, compaction included');
    }
    assert.doesNotMatch(instructionsOf(requests[0]!), /\d{4}-\d{2}-\d{2}|Keep it short|Working directory:/);
    // Each request starts with the whole of the one before it.
    assertEachExtendsPrevious(requests);
    // The first turn told the whole context; the policy and plan mode came as updates; the resumed
    // thread kept both (its settings were saved), so the fourth turn added nothing.
    const told = contextMessagesOf(requests[3]!);
    assert.equal(told.length, 3);
    assert.match(
      told[0]!,
      /^<threadline_context>\nWorking directory: .*\n[^]*Approval policy: on-request[^]*Keep it short\./,
    );
    assert.match(told[1]!, /^<threadline_context_update>\nApproval policy: never/);
    assert.match(told[2]!, /^<threadline_context_update>\n# Collaboration mode\nYou are in plan mode/);
    assert.equal(newestContextOf(requests[3]!), told[2]);
  });

  it('lists read_skill before any skill exists, answering why it cannot help; a new skill then comes as a context update', async () => {
    const home = agentHome('anthropic', model.baseUrl);
    const cwd = tempDir('threadline-cwd-');
    const server = await start(home, 'threadline_vscode', agentEnv);
    const threadId = await startThread(server, cwd);
    const readSkill = {
      output: [{ toolCall: { name: 'read_skill', arguments: '{"name":"release"}', callId: 'toolu_1' } }],
    };
    model.script(readSkill, { output: [{ text: 'No such skill.' }] }, readSkill, {
      output: [{ text: 'Read.' }],
    });
    assert.equal((await runTurn(server, threadId, 'How do we release?')).status, 'completed');
    const names = (request: RecordedRequest) => (request.body.tools as { name: string }[]).map((t) => t.name);
    assert.ok(names(model.requests[0]!).includes('read_skill'));
    assert.match(
      JSON.stringify(model.requests[1]!.body.messages.at(-1)),
      /no skill named release; none is available/,
    );

    mkdirSync(join(home, 'skills', 'release'), { recursive: true });
    writeFileSync(
      join(home, 'skills', 'release', 'SKILL.md'),
      '---\nname: release\ndescription: Tags a release\n---\n\nRELEASE-STEPS\n',
    );
    await server.call('skills/list', { cwds: [cwd], forceReload: true });
    assert.equal((await runTurn(server, threadId, 'And now?')).status, 'completed');
    const [first, , third, fourth] = model.requests;
    assert.equal(toolsOf(third!), toolsOf(first!), 'the same tools once a skill exists');
    assert.match(
      newestContextOf(third!),
      /^<threadline_context_update>\n# Skills\n[^]*- release: Tags a release/,
    );
    assert.match(JSON.stringify(fourth!.body.messages.at(-1)), /RELEASE-STEPS/);
  });
});
