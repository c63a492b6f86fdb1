import { strict as assert } from 'node:assert';
import { planCommand, type CommandCircumstances } from '../../../../server/approvals/commandPolicy';
import { isKnownSafe } from '../../../../server/approvals/safeCommands';
import { commandActions } from '../../../../server/exec/commandActions';
import { parseCommandLine } from '../../../../server/exec/commandLine';
import { OutputBuffer } from '../../../../server/exec/outputBuffer';

const actions = async (text: string) => commandActions(await parseCommandLine(text), text);
const safe = async (text: string) => isKnownSafe(await parseCommandLine(text));

describe('command lines', () => {
  it('reads what a command line does, for display', async () => {
    assert.deepEqual(await actions('cat src/a.ts'), [
      { type: 'read', command: 'cat src/a.ts', name: 'a.ts', path: 'src/a.ts' },
    ]);
    assert.deepEqual(await actions("sed -n '1,20p' lib/x.py"), [
      { type: 'read', command: 'sed -n 1,20p lib/x.py', name: 'x.py', path: 'lib/x.py' },
    ]);
    assert.deepEqual(await actions('ls -la src | head -n 5'), [
      { type: 'listFiles', command: 'ls -la src', path: 'src' },
    ]);
    assert.deepEqual(await actions('rg --files | wc -l'), [
      { type: 'listFiles', command: 'rg --files', path: null },
    ]);
    assert.deepEqual(await actions('rg -n "fn main" src 2>/dev/null'), [
      { type: 'search', command: "rg -n 'fn main' src", query: 'fn main', path: 'src' },
    ]);
    assert.deepEqual(await actions('cd web && grep -e TODO .'), [
      { type: 'search', command: 'grep -e TODO .', query: 'TODO', path: '.' },
    ]);
    assert.deepEqual(await actions('find . -name "*.ts"'), [
      { type: 'search', command: "find . -name '*.ts'", query: '*.ts', path: '.' },
    ]);
    assert.deepEqual(await actions('bash -lc "git grep needle"'), [
      { type: 'search', command: 'git grep needle', query: 'needle', path: null },
    ]);
    assert.deepEqual(await actions('npm test'), [{ type: 'unknown', command: 'npm test' }]);
    assert.deepEqual(await actions('cd src'), [{ type: 'unknown', command: 'cd src' }]);
    assert.deepEqual(await actions('echo "unterminated'), [{ type: 'unknown', command: 'echo' }]);
  });

  it('knows which commands only read', async () => {
    for (const text of [
      'ls -la',
      'cat a | grep x | wc -l',
      'git status && git diff HEAD',
      'rg foo src',
      "sed -n '5,9p' f",
      'find . -name x',
      'git branch --show-current',
    ]) {
      assert.equal(await safe(text), true, text);
    }
    for (const text of [
      'rm -rf x',
      'echo hi > f',
      'cat a; rm b',
      'find . -delete',
      'find . -exec rm {} ;',
      'rg --pre cat x',
      'sed -i s/a/b/ f',
      'git push',
      'git branch -D main',
      'echo $(rm -rf x)',
      'echo `id`',
      'sleep 1 &',
      'ls <(rm x)',
      'bash -c "rm -rf x"',
    ]) {
      assert.equal(await safe(text), false, text);
    }
  });

  it('reads the argv bash runs: quotes and escapes removed, joiners kept', async () => {
    const line = await parseCommandLine(`git log -1 --format='%h %s' | grep -e "a b" && find . -name x\\;`);
    assert.equal(line.plain, true);
    assert.deepEqual(line.commands, [
      { words: ['git', 'log', '-1', '--format=%h %s'], joiner: '|', opaque: [], globs: [] },
      { words: ['grep', '-e', 'a b'], joiner: '&&', opaque: [], globs: [] },
      { words: ['find', '.', '-name', 'x;'], joiner: null, opaque: [], globs: [] },
    ]);
    const computed = await parseCommandLine('ls "$(touch x)" $HOME');
    assert.equal(computed.plain, false);
    assert.deepEqual(computed.commands, [
      { words: ['ls', '"$(touch x)"', '$HOME'], joiner: null, opaque: [1, 2], globs: [] },
      { words: ['touch', 'x'], joiner: null, opaque: [], globs: [] },
    ]);
  });
});

describe('command policy', () => {
  const base: CommandCircumstances = {
    approvalPolicy: 'on-request',
    sandboxPolicy: { type: 'workspaceWrite', writableRoots: [], networkAccess: false },
    sandboxAvailable: true,
    escalated: false,
    knownSafe: false,
    readsRepositoryConfig: false,
    allowedForSession: false,
    rule: null,
  };
  const plan = (c: Partial<CommandCircumstances>) => planCommand({ ...base, ...c });

  it('runs in the sandbox without asking under on-request, and asks to leave it', () => {
    assert.deepEqual(plan({}), { kind: 'run', sandboxed: true });
    assert.equal(plan({ escalated: true }).kind, 'ask');
    assert.deepEqual(plan({ escalated: true, allowedForSession: true }), { kind: 'run', sandboxed: false });
  });

  it('untrusted asks before a known-safe git that nothing confines: the repository config names programs', () => {
    const git = { approvalPolicy: 'untrusted', knownSafe: true, readsRepositoryConfig: true } as const;
    assert.deepEqual(plan(git), { kind: 'run', sandboxed: true });
    const unconfined = plan({ ...git, sandboxPolicy: { type: 'dangerFullAccess' } });
    assert.equal(unconfined.kind, 'ask');
    assert.match(unconfined.kind === 'ask' ? unconfined.reason : '', /core\.fsmonitor/);
    assert.deepEqual(
      plan({ ...git, readsRepositoryConfig: false, sandboxPolicy: { type: 'dangerFullAccess' } }),
      {
        kind: 'run',
        sandboxed: false,
      },
    );
  });

  it('untrusted asks for what is not known-safe, and keeps the sandbox after approval', () => {
    assert.deepEqual(plan({ approvalPolicy: 'untrusted', knownSafe: true }), {
      kind: 'run',
      sandboxed: true,
    });
    const asked = plan({ approvalPolicy: 'untrusted' });
    assert.equal(asked.kind === 'ask' && asked.sandboxedOnceApproved, true);
  });

  it('never never asks: escalation and a missing sandbox are refused', () => {
    assert.deepEqual(plan({ approvalPolicy: 'never' }), { kind: 'run', sandboxed: true });
    assert.equal(plan({ approvalPolicy: 'never', escalated: true }).kind, 'refuse');
    assert.equal(plan({ approvalPolicy: 'never', sandboxAvailable: false }).kind, 'refuse');
    const full = { type: 'dangerFullAccess' } as const;
    assert.deepEqual(plan({ approvalPolicy: 'never', sandboxAvailable: false, sandboxPolicy: full }), {
      kind: 'run',
      sandboxed: false,
    });
  });

  it('asks before every command when the sandbox is missing, approved for the session or not', () => {
    const asked = plan({ sandboxAvailable: false, knownSafe: true });
    assert.equal(asked.kind, 'ask');
    assert.equal(asked.kind === 'ask' && asked.sandboxedOnceApproved, false);
    assert.equal(plan({ sandboxAvailable: false, allowedForSession: true }).kind, 'ask');
    assert.equal(plan({ sandboxAvailable: false, allowedForSession: true, escalated: true }).kind, 'ask');
  });
});

describe('command rules in the policy', () => {
  const base: CommandCircumstances = {
    approvalPolicy: 'on-request',
    sandboxPolicy: { type: 'workspaceWrite', writableRoots: [], networkAccess: false },
    sandboxAvailable: true,
    escalated: false,
    knownSafe: true,
    readsRepositoryConfig: false,
    allowedForSession: true,
    rule: null,
  };
  const plan = (c: Partial<CommandCircumstances>) => planCommand({ ...base, ...c });

  it('refuses what a forbidden rule matches under every policy, even allowed or known safe', () => {
    for (const approvalPolicy of ['untrusted', 'on-request', 'never'] as const) {
      const refused = plan({ approvalPolicy, rule: { decision: 'forbidden', reason: 'no deleting' } });
      assert.equal(refused.kind, 'refuse', approvalPolicy);
      assert.match(
        refused.kind === 'refuse' ? refused.message : '',
        /forbidden by the user's rules: no deleting/,
      );
    }
  });

  it('asks for what a prompt rule matches even where the policy would not, and refuses it under never', () => {
    const asked = plan({ rule: { decision: 'prompt', reason: 'pushes' } });
    assert.equal(asked.kind, 'ask');
    assert.equal(asked.kind === 'ask' && asked.sandboxedOnceApproved, true);
    assert.equal(plan({ approvalPolicy: 'never', rule: { decision: 'prompt', reason: 'x' } }).kind, 'refuse');
  });
});

describe('command output', () => {
  it('keeps head and tail of long output and says how much it cut', () => {
    const buffer = new OutputBuffer(10);
    buffer.push(Buffer.from('0123456789'));
    assert.equal(buffer.text(), '0123456789');
    buffer.push(Buffer.from('abcdefghij'));
    buffer.push(Buffer.from('KLMNO'));
    assert.equal(buffer.totalBytes, 25);
    assert.equal(buffer.text(), '01234\n[… 15 bytes of output cut; 25 in all …]\nKLMNO');
  });
});
