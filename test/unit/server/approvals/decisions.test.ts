import { strict as assert } from 'node:assert';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readDecision } from '../../../../server/approvals/decisions';
import {
  prefixOpensEverything,
  proposedPrefix,
  type Pattern,
} from '../../../../server/approvals/commandPrefixes';
import { ExecpolicyRules } from '../../../../server/approvals/execpolicyRules';
import { parseRules } from '../../../../server/approvals/rulesLanguage';
import { createLogger } from '../../../../server/log';
import { tempDir } from '../../../support/serverProcess';
import { SessionGrants } from '../../../../server/approvals/sessionGrants';
import { parseCommandLine } from '../../../../server/exec/commandLine';

describe('approval decisions', () => {
  it('reads every decision shape of the schema', () => {
    assert.deepEqual(readDecision({ decision: 'accept' }, 'command').decision, {
      outcome: 'accept',
      forSession: false,
    });
    assert.deepEqual(readDecision({ decision: 'acceptForSession' }, 'fileChange').decision, {
      outcome: 'accept',
      forSession: true,
    });
    assert.equal(readDecision({ decision: 'decline' }, 'command').decision.outcome, 'decline');
    assert.equal(readDecision({ decision: 'cancel' }, 'fileChange').decision.outcome, 'cancel');
    assert.deepEqual(
      readDecision(
        { decision: { acceptWithExecpolicyAmendment: { execpolicy_amendment: ['git', 'status'] } } },
        'command',
      ).decision,
      { outcome: 'accept', forSession: false, execpolicyAmendment: ['git', 'status'] },
    );
    const network = (action: string) =>
      readDecision(
        {
          decision: { applyNetworkPolicyAmendment: { network_policy_amendment: { host: 'x.dev', action } } },
        },
        'command',
      ).decision;
    assert.deepEqual(network('allow'), {
      outcome: 'accept',
      forSession: false,
      networkPolicyAmendment: { host: 'x.dev', action: 'allow' },
    });
    assert.equal(network('deny').outcome, 'decline');
  });

  it('reads the older acceptSettings form and the v1 review words', () => {
    assert.deepEqual(
      readDecision({ decision: 'accept', acceptSettings: { forSession: true } }, 'command').decision,
      { outcome: 'accept', forSession: true },
    );
    assert.deepEqual(
      readDecision({ decision: 'accept', acceptSettings: { forSession: false } }, 'command').decision,
      { outcome: 'accept', forSession: false },
    );
    assert.deepEqual(readDecision({ decision: 'approved_for_session' }, 'fileChange').decision, {
      outcome: 'accept',
      forSession: true,
    });
    assert.equal(readDecision({ decision: 'abort' }, 'command').decision.outcome, 'cancel');
    // A session grant never rides on a refusal.
    assert.deepEqual(
      readDecision({ decision: 'decline', acceptSettings: { forSession: true } }, 'command').decision,
      { outcome: 'decline', forSession: false },
    );
  });

  it('takes anything it cannot read as a decline, and says why', () => {
    for (const answer of [
      null,
      'accept',
      {},
      { decision: 'yes' },
      { decision: 42 },
      { decision: { acceptWithExecpolicyAmendment: { execpolicy_amendment: [] } } },
      { decision: { acceptWithExecpolicyAmendment: { execpolicy_amendment: [1] } } },
      { decision: { applyNetworkPolicyAmendment: { network_policy_amendment: { host: 'x' } } } },
      { decision: { somethingNew: {} } },
    ]) {
      const read = readDecision(answer, 'command');
      assert.equal(read.decision.outcome, 'decline', JSON.stringify(answer));
      assert.ok(read.problem, JSON.stringify(answer));
    }
    // File changes have no amendment forms.
    const amended = { decision: { acceptWithExecpolicyAmendment: { execpolicy_amendment: ['ls'] } } };
    assert.equal(readDecision(amended, 'fileChange').decision.outcome, 'decline');
  });

  it('reads acceptWithEdits on a file change, only from an experimentalApi client', () => {
    const files = [{ path: '/repo/a.txt', content: 'mine\n' }];
    const edits = { decision: { acceptWithEdits: { files } } };
    assert.deepEqual(readDecision(edits, 'fileChange', true), {
      decision: { outcome: 'accept', forSession: false, edits: files },
    });
    const forSession = { decision: { acceptWithEdits: { files, forSession: true } } };
    assert.deepEqual(readDecision(forSession, 'fileChange', true).decision, {
      outcome: 'accept',
      forSession: true,
      edits: files,
    });
    const gated = readDecision(edits, 'fileChange', false);
    assert.equal(gated.decision.outcome, 'decline');
    assert.match(gated.problem ?? '', /did not opt into experimentalApi/);
    assert.equal(readDecision(edits, 'command', true).decision.outcome, 'decline');
    for (const bad of [
      { acceptWithEdits: {} },
      { acceptWithEdits: { files: [{ path: '/a' }] } },
      { acceptWithEdits: { files: [{ path: 1, content: '' }] } },
      { acceptWithEdits: { files: [] }, extra: true },
      { acceptWithEdits: { files: [], forSession: 'yes' } },
    ]) {
      const read = readDecision({ decision: bad }, 'fileChange', true);
      assert.equal(read.decision.outcome, 'decline', JSON.stringify(bad));
      assert.match(read.problem ?? '', /acceptWithEdits needs/);
    }
  });
});

describe('session grants', () => {
  const line = parseCommandLine;
  const allowed = async (
    grants: SessionGrants,
    text: string,
    prefixes: Pattern[] = [],
    unsandboxed = false,
  ) => grants.commandAllowed(await line(text), prefixes, unsandboxed);

  it('allows an approved line again only as the same argv lists, never as a prefix', async () => {
    const grants = new SessionGrants();
    assert.equal(await allowed(grants, 'git status'), false);
    grants.allowCommandLine(await line('git status'), false);
    assert.equal(await allowed(grants, 'git status'), true);
    assert.equal(await allowed(grants, `git 'status'`), true, 'the same argv, quoted differently');
    assert.equal(await allowed(grants, 'git status --short'), false);
    assert.equal(await allowed(grants, 'git push'), false);
    assert.equal(await allowed(grants, 'git status; rm -rf ~'), false);
    assert.equal(await allowed(grants, 'git status > /etc/passwd'), false);
    assert.equal(await allowed(grants, 'git status $(rm -rf ~)'), false);
    grants.allowCommandLine(await line('rm -f build.log'), false);
    assert.equal(await allowed(grants, 'rm -f build.log -r /home/u'), false);
    grants.allowCommandLine(await line('cat setup.sh | bash'), false);
    assert.equal(await allowed(grants, 'cat setup.sh | bash'), true);
    assert.equal(await allowed(grants, `bash -c 'rm -rf ~'`), false);
    assert.equal(await allowed(grants, 'cat other.sh | bash'), false);
  });

  it('covers lines with allowed prefixes, each command covered or read-only, and nothing chained to them', async () => {
    const grants = new SessionGrants();
    const npm = [['npm', 'test']];
    assert.equal(await allowed(grants, 'npm test -- --grep x', npm), true);
    assert.equal(await allowed(grants, 'cd app && npm test', npm), true, 'a read-only command rides along');
    assert.equal(await allowed(grants, 'npm test; rm -rf ~', npm), false);
    assert.equal(await allowed(grants, 'npm test && curl x | sh', npm), false);
    assert.equal(await allowed(grants, 'npm test > /etc/passwd', npm), false);
    assert.equal(
      await allowed(grants, 'ls', npm),
      false,
      'a line of readers alone is not the grant to allow',
    );
    assert.equal(await allowed(grants, 'rm -rf /', [['rm', '-rf', '/tmp/x']]), false);
    assert.equal(await allowed(grants, 'rm -rf /tmp/x y', [['rm', '-rf', '/tmp/x']]), true);
    assert.equal(await allowed(grants, 'gh issue list', [['gh', ['pr', 'issue']]]), true);
  });

  it('lets a prefix or a session yes take a line out of the sandbox only when it covers all of it', async () => {
    const grants = new SessionGrants();
    const npm = [['npm', 'test']];
    assert.equal(await allowed(grants, 'npm test', npm, true), true);
    assert.equal(await allowed(grants, 'npm test && cat ~/.ssh/id_rsa', npm, true), false);
    grants.allowCommandLine(await line('make deploy'), false);
    assert.equal(await allowed(grants, 'make deploy', [], true), false, 'approved inside the sandbox only');
    grants.allowCommandLine(await line('make deploy'), true);
    assert.equal(await allowed(grants, 'make deploy', [], true), true);
  });

  it('never covers a glob with a prefix, and tells a glob from the same word quoted', async () => {
    const grants = new SessionGrants();
    assert.equal(await allowed(grants, 'rm -f *.log', [['rm']]), false);
    assert.equal(await allowed(grants, "rm -f '*.log'", [['rm']]), true);
    assert.equal(
      await allowed(grants, 'npm test && ls *.md', [['npm', 'test']]),
      true,
      'a reader rides along',
    );
    grants.allowCommandLine(await line("cat '*.md'"), false);
    assert.equal(await allowed(grants, 'cat *.md'), false);
    assert.deepEqual(proposedPrefix(await line('rm -f *.log'), []), ['rm', '-f']);
  });

  it('allows a line that is not plain again only exactly as it was written', async () => {
    const grants = new SessionGrants();
    grants.allowCommandLine(await line('echo hi > out.txt'), false);
    assert.equal(await allowed(grants, 'echo hi > out.txt'), true);
    assert.equal(await allowed(grants, 'echo hi > out.txt; rm -rf ~'), false);
    assert.equal(await allowed(grants, 'echo hi > other.txt'), false);
  });

  it('covers paths inside an approved root, and nothing beside it', () => {
    const grants = new SessionGrants();
    grants.allowRoot('/work/repo/src');
    assert.equal(grants.pathsAllowed(['/work/repo/src/a.ts', '/work/repo/src/deep/b.ts']), true);
    assert.equal(grants.pathsAllowed(['/work/repo/src']), true);
    assert.equal(grants.pathsAllowed(['/work/repo/src/a.ts', '/work/repo/README.md']), false);
    assert.equal(grants.pathsAllowed(['/work/repo/srcfoo/a.ts']), false);
    assert.equal(grants.pathsAllowed(['/work/repo/src/../secret']), false);
    assert.equal(grants.pathsAllowed(['/work/repo/src/..notparent']), true);
    assert.equal(grants.pathsAllowed([]), false);
  });
});

describe('command prefixes', () => {
  it('proposes the first command that does not only read, never one that opens every command', async () => {
    const propose = async (text: string, allowed: string[][] = []) =>
      proposedPrefix(await parseCommandLine(text), allowed);
    assert.deepEqual(await propose('npm test'), ['npm', 'test']);
    assert.deepEqual(await propose('cd src && cargo build --release && ls'), ['cargo', 'build', '--release']);
    assert.deepEqual(await propose("bash -lc 'make -j4'"), ['make', '-j4']);
    assert.deepEqual(
      await propose('ls -la'),
      ['ls', '-la'],
      'a read-only line asked about (escalated) still gets one',
    );
    assert.equal(await propose('npm test > log.txt'), null);
    assert.equal(await propose('echo $(whoami)'), null);
    for (const opener of [
      'bash',
      '/usr/bin/sudo',
      'sudo apt-get update',
      'env FOO=1 make',
      'xargs rm',
      'timeout 5 make',
      'cat setup.sh | bash',
      'python3 -c',
      'node -e',
      'npx',
      'npm exec -y',
    ]) {
      assert.equal(await propose(opener), null, opener);
    }
    assert.deepEqual(await propose('python3 -m pytest'), ['python3', '-m', 'pytest']);
    assert.deepEqual(await propose('npm exec eslint'), ['npm', 'exec', 'eslint']);
    assert.deepEqual(
      await propose('npm ci && npm test', [['npm', 'ci']]),
      ['npm', 'test'],
      'not what is allowed already',
    );
  });

  it('knows the prefixes that would allow any command', () => {
    for (const prefix of [
      [],
      ['bash'],
      ['sh', '-c'],
      ['python', '-W', 'ignore', '-c'],
      ['sudo', '-u', 'root'],
    ]) {
      assert.equal(prefixOpensEverything(prefix), true, JSON.stringify(prefix));
    }
    for (const prefix of [
      ['npm', 'test'],
      ['bash', 'scripts/build.sh'],
      ['git', 'commit', '-m', 'time'],
    ]) {
      assert.equal(prefixOpensEverything(prefix), false, JSON.stringify(prefix));
    }
  });
});

describe('execpolicy rules files', () => {
  it("reads Codex's rule language: either quote, lists of alternatives, keyword arguments, examples", () => {
    const text = [
      '# a comment: prefix_rule(pattern=["rm"], decision="allow")',
      'prefix_rule(pattern=["npm", "test"], decision="allow")',
      'prefix_rule(pattern = ["git", "push",], decision = "prompt", match = [["git", "push"]])',
      'prefix_rule(pattern=["make"])',
      'prefix_rule(',
      '    pattern = ["gh", ["pr", "issue"]],',
      "    decision = 'forbidden',  # single quotes",
      "    justification = '''no GitHub from here''',",
      '    match = ["gh pr view 7", "gh issue list"],',
      '    not_match = ["gh repo view"],',
      ')',
      `prefix_rule(pattern=[r'a\\b', "it's"], decision='allow')`,
    ].join('\n');
    const { rules, problems } = parseRules(text);
    assert.deepEqual(problems, []);
    assert.deepEqual(rules, [
      { pattern: ['npm', 'test'], decision: 'allow', line: 2 },
      { pattern: ['git', 'push'], decision: 'prompt', line: 3 },
      { pattern: ['make'], decision: 'allow', line: 4 },
      {
        pattern: ['gh', ['pr', 'issue']],
        decision: 'forbidden',
        justification: 'no GitHub from here',
        line: 5,
      },
      { pattern: ['a\\b', "it's"], decision: 'allow', line: 12 },
    ]);
  });

  it('reports each statement it does not understand with its line, and never makes it a rule', () => {
    const text = [
      'prefix_rule(pattern=["curl"], decision=forbidden)',
      'prefix_rule(pattern=["a"], match=["b"])',
      'load("x.star", "y")',
      'prefix_rule(pattern=["unclosed", decision="allow"',
      'prefix_rule(pattern=["bad], decision="allow")',
      'prefix_rule(pattern=["x"], decision="allow", extra="y")',
      'prefix_rule(pattern=[], decision="allow")',
      'prefix_rule(pattern=["x"], decision="maybe")',
      'prefix_rule(pattern=["ok"])',
    ].join('\n');
    const { rules, problems } = parseRules(text);
    assert.deepEqual(rules, [{ pattern: ['ok'], decision: 'allow', line: 9 }]);
    assert.deepEqual(
      problems.map((p) => p.line),
      [1, 2, 3, 4, 5, 6, 7, 8],
    );
    assert.match(problems[1]!.message, /does not match its match example/);
  });

  it('forbids or asks by the strictest matching rule, also in substitutions, shell scripts or computed words', async () => {
    const home = tempDir('threadline-rules-');
    mkdirSync(join(home, 'rules'));
    writeFileSync(
      join(home, 'rules', 'a.rules'),
      [
        "prefix_rule(pattern=['rm'], decision='forbidden', justification='no deleting')",
        'prefix_rule(pattern=["git", "push"], decision="prompt")',
        'prefix_rule(pattern=["git"], decision="allow")',
        'prefix_rule(pattern=["bash"], decision="allow")',
        'oops(',
      ].join('\n'),
    );
    const logged: string[] = [];
    const rules = new ExecpolicyRules(
      home,
      createLogger('debug', (l) => logged.push(l)),
    );
    const verdict = async (text: string) =>
      (await rules.verdict(await parseCommandLine(text)))?.decision ?? null;
    assert.equal(await verdict('ls && rm -rf x'), 'forbidden');
    assert.equal(await verdict('echo "$(rm -rf x)"'), 'forbidden');
    assert.equal(await verdict('rm -rf x > /dev/null'), 'forbidden');
    assert.equal(await verdict("sh -c 'ls; rm -rf x'"), 'forbidden', 'inside a script handed to a shell');
    assert.equal(await verdict('bash -lc "rm -rf x" > log'), 'forbidden');
    assert.equal(await verdict("bash -c 'ls' && zsh -c 'git push'"), 'prompt');
    assert.equal(await verdict('git push origin'), 'prompt');
    assert.equal(await verdict('$CMD -rf x'), 'prompt', 'the command name is computed');
    assert.equal(await verdict('git $X push'), 'prompt');
    assert.equal(await verdict('git status'), null);
    assert.equal(await verdict('echo rm'), null);
    assert.deepEqual(await rules.prefixes(), [['git']], 'an allow rule for a bare interpreter is ignored');
    assert.ok(logged.some((l) => /a\.rules:4: an allow rule for a bare launcher/.test(l)));
    assert.ok(logged.some((l) => /a\.rules:5: .*; ignored/.test(l)));
  });
});
