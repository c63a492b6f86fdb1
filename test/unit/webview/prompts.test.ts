// The prompts' pure reducer and the wording of their choices: pending lists per thread, answers given
// here, outcomes from the host, and the decisions offered for each kind of request.
import * as assert from 'node:assert/strict';
import {
  commandChoices,
  describeActions,
  fileChoices,
  mcpChoices,
  outcomeLabel,
} from '../../../webview/prompts/decisions';
import { answerLooks } from '../../../webview/prompts/answers';
import {
  noPrompts,
  reducePrompts,
  type PromptAction,
  type PromptState,
} from '../../../webview/store/prompts';
import { threadId } from './conversationFixtures';
import { commandPrompt, filePrompt, questionPrompt } from './promptFixtures';

const apply = (state: PromptState, ...actions: PromptAction[]) => actions.reduce(reducePrompts, state);
const keys = (state: PromptState) => state.pending.map((p) => p.key);

describe('webview prompts reducer', () => {
  const shown = () => apply(noPrompts, { type: 'thread', threadId });

  it('takes the pending list of the shown thread only, oldest first', () => {
    const s = apply(
      shown(),
      { type: 'prompts', threadId, prompts: [commandPrompt('b', 20), questionPrompt('a', 10)] },
      { type: 'prompts', threadId: 'other', prompts: [commandPrompt('x', 1)] },
    );
    assert.deepEqual(keys(s), ['a', 'b']);
    // The same list again changes nothing, so nothing re-renders.
    assert.equal(
      reducePrompts(s, {
        type: 'prompts',
        threadId,
        prompts: [commandPrompt('b', 20), questionPrompt('a', 10)],
      }),
      s,
    );
  });

  it('forgets the prompts of a thread no longer shown', () => {
    const s = apply(shown(), { type: 'prompts', threadId, prompts: [commandPrompt('a')] });
    assert.equal(reducePrompts(s, { type: 'thread', threadId }), s);
    const other = reducePrompts(s, { type: 'thread', threadId: 'thr_2' });
    assert.deepEqual(other, { threadId: 'thr_2', pending: [], settled: [] });
    assert.deepEqual(reducePrompts(s, { type: 'thread', threadId: null }).pending, []);
  });

  it('settles an answer given here at once; the host’s outcome replaces it; a settled prompt never returns', () => {
    const s = apply(
      shown(),
      { type: 'prompts', threadId, prompts: [commandPrompt('a', 1), filePrompt('b', 'fc1', 2)] },
      { type: 'answered', key: 'a', result: { decision: 'accept' } },
    );
    assert.deepEqual(keys(s), ['b']);
    assert.deepEqual(
      s.settled.map((x) => [x.prompt.key, x.outcome]),
      [['a', { answered: { decision: 'accept' } }]],
    );
    // The host's list may still name it (its change arrives later): it stays settled.
    const again = reducePrompts(s, {
      type: 'prompts',
      threadId,
      prompts: [commandPrompt('a', 1), filePrompt('b', 'fc1', 2)],
    });
    assert.deepEqual(keys(again), ['b']);
    const elsewhere = reducePrompts(again, {
      type: 'promptSettled',
      threadId,
      key: 'a',
      outcome: { resolvedElsewhere: true },
    });
    assert.deepEqual(elsewhere.settled[0].outcome, { resolvedElsewhere: true });
    assert.deepEqual(reducePrompts(elsewhere, { type: 'dismiss', key: 'a' }).settled, []);
  });

  it('settles from the host: an interrupted turn’s prompt; unknown keys and other threads change nothing', () => {
    const s = apply(shown(), { type: 'prompts', threadId, prompts: [commandPrompt('a')] });
    const cancelled = reducePrompts(s, {
      type: 'promptSettled',
      threadId,
      key: 'a',
      outcome: { cancelled: 'turn interrupted' },
    });
    assert.deepEqual(cancelled.pending, []);
    assert.deepEqual(cancelled.settled[0].outcome, { cancelled: 'turn interrupted' });
    assert.equal(
      reducePrompts(s, { type: 'promptSettled', threadId, key: 'zzz', outcome: { resolvedElsewhere: true } }),
      s,
    );
    assert.equal(
      reducePrompts(s, {
        type: 'promptSettled',
        threadId: 'other',
        key: 'a',
        outcome: { resolvedElsewhere: true },
      }),
      s,
    );
    assert.equal(reducePrompts(s, { type: 'answered', key: 'zzz', result: { decision: 'decline' } }), s);
    assert.equal(reducePrompts(s, { type: 'dismiss', key: 'zzz' }), s);
  });
});

describe('webview prompt decisions', () => {
  const params = (p: ReturnType<typeof commandPrompt>) =>
    p.kind === 'commandExecution' ? p.params : assert.fail();

  it('offers the four decisions from the one table, and "always allow" with its rule only when proposed', () => {
    const plain = commandChoices(params(commandPrompt('a')));
    assert.deepEqual(
      plain.map((c) => [c.label, c.decision, c.shortcut]),
      [
        ['Accept', 'accept', 'Enter'],
        ['Accept for session', 'acceptForSession', 'S'],
        ['Decline', 'decline', 'Escape'],
        ['Cancel turn', 'cancel', 'C'],
      ],
    );
    const amended = commandChoices(
      params(commandPrompt('a', 1, { proposedExecpolicyAmendment: ['npm', 'test'] })),
    );
    assert.deepEqual(amended[2], {
      kind: 'always',
      label: 'Always allow',
      hint: answerLooks.always.hint,
      decision: { acceptWithExecpolicyAmendment: { execpolicy_amendment: ['npm', 'test'] } },
      primary: false,
      shortcut: 'A',
      // Exactly the line the server appends to default.rules.
      rule: {
        caption: 'Always allow stores this rule:',
        text: 'prefix_rule(pattern=["npm","test"], decision="allow")',
      },
    });
  });

  it('offers only what availableDecisions allows, in the table’s order, with the same labels for network access', () => {
    const amendment = { host: 'example.com', action: 'allow' as const };
    const choices = commandChoices(
      params(
        commandPrompt('a', 1, {
          networkApprovalContext: { host: 'example.com', protocol: 'https' },
          availableDecisions: [
            'decline',
            { applyNetworkPolicyAmendment: { network_policy_amendment: amendment } },
            'accept',
          ],
        }),
      ),
    );
    assert.deepEqual(
      choices.map((c) => [c.label, c.shortcut, c.rule?.text]),
      [
        ['Accept', 'Enter', undefined],
        ['Always allow', 'A', 'example.com'],
        ['Decline', 'Escape', undefined],
      ],
    );
  });

  it('asks an MCP tool approval with the same answers; an option it cannot name leaves it a question', () => {
    const question = (id: string, labels: string[]) => ({
      id,
      header: 'Approve tool',
      question: 'Allow the MCP server "demo" to run echo with {}?',
      isOther: false,
      isSecret: false,
      options: labels.map((label) => ({ label, description: '' })),
    });
    assert.deepEqual(
      mcpChoices([question('mcp_tool_approval', ['Accept', 'Decline', 'Cancel'])])?.map((c) => [
        c.label,
        c.decision,
        c.shortcut,
      ]),
      [
        ['Accept', 'Accept', 'Enter'],
        ['Decline', 'Decline', 'Escape'],
        ['Cancel turn', 'Cancel', 'C'],
      ],
    );
    // codex's wording of the same question.
    assert.deepEqual(
      mcpChoices([
        question('mcp_tool_call_approval_call_1', ['Allow', 'Allow for this session', 'Cancel']),
      ])?.map((c) => [c.label, c.decision, c.shortcut]),
      [
        ['Accept', 'Allow', 'Enter'],
        ['Accept for session', 'Allow for this session', 'S'],
        ['Cancel turn', 'Cancel', 'C'],
      ],
    );
    assert.equal(mcpChoices([question('mcp_tool_approval', ['Accept', 'Run twice'])]), null);
    assert.equal(mcpChoices([question('db', ['Accept', 'Decline'])]), null);
    assert.equal(
      outcomeLabel('userInput', { answered: { answers: { mcp_tool_approval: { answers: ['Cancel'] } } } }),
      'Declined, turn cancelled',
    );
  });

  it('offers file changes the four decisions and describes what a command will do', () => {
    assert.deepEqual(
      fileChoices().map((c) => c.decision),
      ['accept', 'acceptForSession', 'decline', 'cancel'],
    );
    assert.deepEqual(
      describeActions([
        { type: 'read', command: 'cat a.ts', name: 'a.ts', path: 'src/a.ts' },
        { type: 'listFiles', command: 'ls', path: null },
        { type: 'search', command: 'rg foo src', query: 'foo', path: 'src' },
        { type: 'unknown', command: 'make' },
      ]),
      ['Read src/a.ts', 'List files in the working folder', 'Search for “foo” in src'],
    );
  });

  it('says how a prompt ended', () => {
    assert.equal(outcomeLabel('fileChange', { answered: { decision: 'accept' } }), 'Accepted');
    assert.equal(outcomeLabel('commandExecution', { answered: { decision: 'decline' } }), 'Declined');
    assert.equal(outcomeLabel('commandExecution', { resolvedElsewhere: true }), 'Answered elsewhere');
    assert.equal(
      outcomeLabel('commandExecution', { resolvedElsewhere: true }, 'interrupted'),
      'Cancelled (turn interrupted)',
    );
    assert.equal(
      outcomeLabel('fileChange', { answered: { decision: { acceptWithEdits: { files: [] } } } }),
      'Accepted with your edits',
    );
    assert.equal(
      outcomeLabel('commandExecution', { cancelled: 'turn interrupted' }),
      'Cancelled (turn interrupted)',
    );
    assert.equal(outcomeLabel('userInput', { answered: { answers: {} } }), 'Answered');
  });
});
