// Codex rollout lines into our records, for shapes the 0.169 fixture does not hold: older files
// (messages as user_message/agent_message events, no turn items), a turn that failed or was
// interrupted, renames and rollbacks recorded in the file, and lines that are not Codex's at all.
import { strict as assert } from 'node:assert';
import { CodexTranslator, parseCodexLine } from '../../../../server/threads/codexRollout';
import { foldHistory } from '../../../../server/threads/records';

const line = (type: string, payload: Record<string, unknown>, timestamp = '2025-06-01T10:00:00.000Z') =>
  JSON.stringify({ timestamp, type, payload });

function translate(lines: string[]) {
  const translator = new CodexTranslator();
  for (const text of lines) {
    const parsed = parseCodexLine(text);
    if (parsed && !translator.take(parsed)) break;
  }
  const result = translator.result();
  assert.ok(result, 'a Codex thread');
  return { ...result, history: foldHistory(result.meta, result.records.slice(1)) };
}

const meta = line('session_meta', {
  id: '0196f0a0-0000-7000-8000-000000000001',
  timestamp: '2025-06-01T10:00:00.000Z',
  cwd: '/work/old',
  originator: 'codex_cli_rs',
  cli_version: '0.20.0',
  source: 'cli',
  model_provider: 'openai',
  git: { commit_hash: 'abc123', branch: 'main', repository_url: 'git@example.com:x.git' },
});

describe('reading Codex rollouts', () => {
  it('reads an older file: messages from events, turns bounded by task events, settings from turn_context', () => {
    const { meta: read, history } = translate([
      meta,
      line('event_msg', { type: 'task_started' }),
      line('turn_context', { model: 'gpt-5', cwd: '/work/old' }),
      line('response_item', {
        type: 'message',
        role: 'user',
        content: [{ type: 'input_text', text: 'Fix it' }],
      }),
      line('event_msg', { type: 'user_message', message: 'Fix it' }),
      line('event_msg', { type: 'agent_message', message: 'Fixed.' }),
      line('event_msg', { type: 'task_complete', last_agent_message: 'Fixed.' }, '2025-06-01T10:00:05.000Z'),
    ]);
    assert.deepEqual(
      { source: read.source, originator: read.originator, model: read.model, cli: read.cliVersion },
      { source: 'cli', originator: 'codex_cli_rs', model: 'gpt-5', cli: '0.20.0' },
    );
    assert.deepEqual(read.gitInfo, { sha: 'abc123', branch: 'main', originUrl: 'git@example.com:x.git' });
    assert.equal(history.turns.length, 1);
    assert.equal(history.turns[0]!.status, 'completed');
    assert.equal(history.turns[0]!.durationMs, 5000);
    assert.deepEqual(
      history.turns[0]!.items.map((i) => (i.type === 'agentMessage' ? i.text : i.type)),
      ['userMessage', 'Fixed.'],
    );
    assert.equal(history.firstUserText, 'Fix it');
    assert.deepEqual(
      history.modelHistory.map((e) => e.kind),
      ['user'],
    );
  });

  it('marks aborted and failed turns, and applies renames and rollbacks recorded in the file', () => {
    const { history } = translate([
      meta,
      line('event_msg', { type: 'task_started', turn_id: 't1' }),
      line('event_msg', { type: 'user_message', message: 'one' }),
      line('event_msg', { type: 'turn_aborted', turn_id: 't1', reason: 'interrupted' }),
      line('event_msg', { type: 'task_started', turn_id: 't2' }),
      line('event_msg', { type: 'user_message', message: 'two' }),
      line('event_msg', { type: 'error', message: 'stream disconnected' }),
      line('event_msg', { type: 'task_complete', turn_id: 't2' }),
      line('event_msg', { type: 'task_started', turn_id: 't3' }),
      line('event_msg', { type: 'user_message', message: 'three' }),
      line('event_msg', { type: 'task_complete', turn_id: 't3' }),
      line('event_msg', { type: 'thread_name_updated', thread_name: 'Renamed in Codex' }),
      line('event_msg', { type: 'thread_rolled_back', num_turns: 1 }),
    ]);
    assert.equal(history.name, 'Renamed in Codex');
    assert.deepEqual(
      history.turns.map((t) => [t.id, t.status, t.error?.message ?? null]),
      [
        ['t1', 'interrupted', null],
        ['t2', 'failed', 'stream disconnected'],
      ],
    );
  });

  it('refuses a file whose first line is not a Codex session, and skips lines that are not Codex lines', () => {
    const translator = new CodexTranslator();
    assert.equal(translator.take(parseCodexLine(line('event_msg', { type: 'task_started' }))!), false);
    assert.equal(translator.result(), undefined);
    assert.equal(
      parseCodexLine('{"type":"session_meta","ts":1,"meta":{}}'),
      undefined,
      "our own format is not Codex's",
    );
    assert.equal(parseCodexLine('not json'), undefined);
    const { history } = translate([
      meta,
      '{"broken',
      line('event_msg', { type: 'user_message', message: 'still read' }),
    ]);
    assert.equal(history.firstUserText, 'still read');
  });

  it('keeps harness messages and developer instructions out of what the model will be shown', () => {
    const { history } = translate([
      meta,
      line('event_msg', { type: 'task_started', turn_id: 't1' }),
      line('response_item', {
        type: 'message',
        role: 'developer',
        content: [{ type: 'input_text', text: 'rules' }],
      }),
      line('response_item', {
        type: 'message',
        role: 'user',
        content: [{ type: 'input_text', text: '<environment_context>\n<cwd>/x</cwd>' }],
      }),
      line('response_item', {
        type: 'message',
        role: 'user',
        content: [{ type: 'input_text', text: 'Real prompt' }],
      }),
      line('response_item', {
        type: 'function_call',
        call_id: 'c1',
        name: 'shell',
        arguments: '{"command":["ls"]}',
      }),
      line('response_item', {
        type: 'function_call_output',
        call_id: 'c1',
        output: { content: 'a.txt', success: true },
      }),
      line('response_item', {
        type: 'message',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'Done' }],
      }),
      line('event_msg', { type: 'task_complete', turn_id: 't1' }),
    ]);
    assert.deepEqual(history.modelHistory, [
      { kind: 'user', content: [{ type: 'text', text: 'Real prompt' }] },
      { kind: 'toolCall', callId: 'c1', name: 'shell', arguments: '{"command":["ls"]}', custom: false },
      { kind: 'toolResult', callId: 'c1', output: 'a.txt', custom: false },
      { kind: 'assistant', text: 'Done' },
    ]);
  });
});
