// The context messages with injected dates and settings: the whole context on a thread's first
// turn, nothing when nothing changed, only what changed after (a new day included), and what was
// sent never rewritten. A change of day cannot be staged through the real server without a fake
// clock, so it is proved here, on the pure function the server calls with the real one.
import { strict as assert } from 'node:assert';
import {
  contextMessage,
  environmentContext,
  isContextEntry,
  type ContextSources,
} from '../../../../server/agent/environmentContext';
import type { ConversationEntry } from '../../../../server/providers/types';

const SOURCES: ContextSources = {
  cwd: '/home/ada/project',
  platform: 'linux',
  shell: '/bin/bash',
  now: new Date('2026-11-26T23:59:30Z'),
  approvalPolicy: 'on-request',
  sandboxPolicy: { type: 'workspaceWrite', writableRoots: ['/home/ada/project'], networkAccess: false },
  personality: null,
  developerInstructions: null,
  collaborationMode: null,
  agentsMd: '# AGENTS.md instructions\nRun npm test.',
  skills: null,
  goal: null,
};

/** Runs the turns of a thread: each adds its context message (if any) and a user message. */
function turns(...each: Partial<ContextSources>[]): {
  history: ConversationEntry[];
  added: (string | null)[];
} {
  const history: ConversationEntry[] = [];
  const added: (string | null)[] = [];
  for (const change of each) {
    const message = contextMessage(history, environmentContext({ ...SOURCES, ...change }));
    added.push(message?.text ?? null);
    if (message) history.push(message);
    history.push(
      { kind: 'user', content: [{ type: 'text', text: 'go on' }] },
      { kind: 'assistant', text: 'ok' },
    );
  }
  return { history, added };
}

describe('environment context', () => {
  it('tells the whole context on the first turn', () => {
    const { added } = turns({});
    assert.equal(
      added[0],
      [
        '<threadline_context>',
        'Working directory: /home/ada/project',
        'Operating system: Linux',
        'Shell: /bin/bash',
        'Date: 2026-11-26',
        'Approval policy: on-request (commands run in the sandbox; ask to run one outside it when the task needs it)',
        'Sandbox: workspace-write (commands may write only inside /home/ada/project)',
        'Network: restricted',
        '# AGENTS.md instructions\nRun npm test.',
        '</threadline_context>',
      ].join('\n'),
    );
  });

  it('adds nothing while nothing changes, also at another hour of the same UTC day', () => {
    const { added } = turns({}, {}, { now: new Date('2026-11-26T00:00:01Z') });
    assert.deepEqual(added.slice(1), [null, null]);
  });

  it('appends only what changed: a new day, then a policy, then AGENTS.md and a skill together', () => {
    const { history, added } = turns(
      {},
      { now: new Date('2026-11-27T00:00:10Z') },
      { now: new Date('2026-11-27T08:00:00Z'), approvalPolicy: 'never', sandboxPolicy: { type: 'readOnly' } },
      {
        now: new Date('2026-11-27T09:00:00Z'),
        approvalPolicy: 'never',
        sandboxPolicy: { type: 'readOnly' },
        agentsMd: '# AGENTS.md instructions\nRun npm test -- --bail.',
        skills: '# Skills\n- lint: runs the linter',
      },
    );
    assert.equal(added[1], '<threadline_context_update>\nDate: 2026-11-27\n</threadline_context_update>');
    assert.equal(
      added[2],
      [
        '<threadline_context_update>',
        'Approval policy: never (nobody is asked; what the sandbox refuses stays refused)',
        'Sandbox: read-only (commands may read files but not write them)',
        '</threadline_context_update>',
      ].join('\n'),
      'the network stays restricted, so it is not repeated',
    );
    assert.equal(
      added[3],
      [
        '<threadline_context_update>',
        '# AGENTS.md instructions\nRun npm test -- --bail.',
        '# Skills\n- lint: runs the linter',
        '</threadline_context_update>',
      ].join('\n'),
    );
    // Every message stays in the history as it was sent; the first is still the whole context.
    assert.deepEqual(
      history.filter(isContextEntry).map((entry) => entry.text),
      added.filter((text) => text !== null),
    );
  });

  it('says when a section stops applying, and tells everything again once the history holds no context', () => {
    const { added } = turns({ collaborationMode: 'You are in plan mode.' }, {});
    assert.equal(
      added[1],
      '<threadline_context_update>\n# Collaboration mode\nNo longer in force: disregard the Collaboration mode given earlier.\n</threadline_context_update>',
    );
    const fresh = contextMessage(
      [{ kind: 'user', content: [{ type: 'text', text: 'summary' }] }],
      environmentContext(SOURCES),
    );
    assert.match(fresh!.text, /^<threadline_context>\n/);
  });

  it('takes a part absent from an older message (recorded before the part existed) as unset, not as a change', () => {
    const { history } = turns({});
    const older = history.filter(isContextEntry).map((entry) => {
      const { goal: _absent, ...context } = entry.context;
      return { ...entry, context } as unknown as ConversationEntry;
    });
    assert.equal(contextMessage(older, environmentContext(SOURCES)), null);
    assert.match(
      contextMessage(older, environmentContext({ ...SOURCES, goal: 'Objective: ship it' }))!.text,
      /^<threadline_context_update>\n# Thread goal\nObjective: ship it\n/,
    );
  });

  it('names the network and sandbox of each policy', () => {
    const told = (sandboxPolicy: ContextSources['sandboxPolicy']) =>
      contextMessage([], environmentContext({ ...SOURCES, sandboxPolicy }))!.text;
    assert.match(told({ type: 'dangerFullAccess' }), /Sandbox: full access .*\nNetwork: enabled/);
    assert.match(told({ type: 'workspaceWrite', networkAccess: true }), /Network: enabled/);
    assert.match(
      told({ type: 'externalSandbox', networkAccess: 'enabled' }),
      /Sandbox: external .*\nNetwork: enabled/,
    );
  });
});
