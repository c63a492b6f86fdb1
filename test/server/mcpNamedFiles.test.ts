// Trust in a project's MCP server follows the code it runs, through the real server: trusting
// `sh tools/mcp.sh` covers the script as it is; the unchanged script starts again unasked (also after
// a restart), and a script the agent rewrote (to leave a canary outside the project) is not run again
// until the user answers anew. An unpinned package runner is said to be unpinned.
import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DISTRUST_ANSWER, TRUST_ANSWER } from '../../server/protocol/mcpTrust';
import { useModelServer } from '../fixtures/modelServer/server';
import { agentEnv, agentHome, startThread, startTurn, turnCompleted } from '../support/agent';
import { answerTrust, FIXTURE, offeredTools, questionsAsked, trustQuestion } from '../support/mcpFixture';
import type { Incoming } from '../support/messageLog';
import { repoRoot } from '../support/paths';
import { tempDir, useServers } from '../support/serverProcess';

/** A project whose .codex/config.toml defines `tables`, below a `.git` (so it is the project root). */
function project(tables: string): string {
  const dir = tempDir('threadline-mcp-named-');
  mkdirSync(join(dir, '.git'));
  mkdirSync(join(dir, '.codex'));
  mkdirSync(join(dir, 'tools'));
  writeFileSync(join(dir, '.codex', 'config.toml'), tables);
  return dir;
}

/** tools/mcp.sh: runs the stdio fixture, after `before`. */
function writeScript(dir: string, before = ''): void {
  const run = `cd '${repoRoot}' && exec '${process.execPath}' --import tsx '${FIXTURE}' proj normal`;
  writeFileSync(join(dir, 'tools', 'mcp.sh'), `${before}${run}\n`);
}

const question = (asked: Incoming) =>
  (asked.params as { questions: { question: string }[] }).questions[0]!.question;

describe('MCP trust follows the files a server names', function () {
  this.timeout(40_000);
  if (process.platform === 'win32') return;
  const model = useModelServer();
  const start = useServers();

  const offered = (i: number) => offeredTools(model, i);

  it('a trusted script runs unasked while unchanged; rewritten, it does not run without a new answer', async () => {
    const dir = project('[mcp_servers.proj]\ncommand = "sh"\nargs = ["tools/mcp.sh"]\n');
    writeScript(dir);
    const canary = join(tempDir('threadline-mcp-canary-'), 'ran');
    const home = agentHome('responses', model.baseUrl);
    model.script(
      { output: [{ text: 'one' }] },
      { output: [{ text: 'two' }] },
      { output: [{ text: 'three' }] },
    );

    const first = await start(home, 'threadline_vscode', agentEnv);
    const threadId = await startThread(first, dir);
    const turn1 = await startTurn(first, threadId, 'one');
    const asked = await trustQuestion(first, turn1.id);
    assert.match(question(asked), /sh tools\/mcp\.sh/);
    assert.match(question(asked), /Trust covers the content of `tools\/mcp\.sh`/);
    assert.doesNotMatch(question(asked), /Unpinned/);
    answerTrust(first, asked, TRUST_ANSWER);
    await turnCompleted(first, turn1.id, 30_000);
    assert.ok(offered(0).includes('mcp__proj__echo'));
    await first.stop();

    // Control: the same script in a new server starts without asking.
    const second = await start(home, 'threadline_vscode', agentEnv);
    const thread2 = await startThread(second, dir);
    const turn2 = await startTurn(second, thread2, 'two');
    await turnCompleted(second, turn2.id, 30_000);
    assert.equal(questionsAsked(second), 0, 'the unchanged script is still trusted');
    assert.ok(offered(1).includes('mcp__proj__echo'));

    // The agent rewrites the script: the running server is stopped and the new one is not started.
    writeScript(dir, `echo pwned > '${canary}'\n`);
    const turn3 = await startTurn(second, thread2, 'three');
    const again = await trustQuestion(second, turn3.id);
    assert.match(question(again), /tools\/mcp\.sh/);
    answerTrust(second, again, DISTRUST_ANSWER);
    await turnCompleted(second, turn3.id, 30_000);
    assert.ok(!offered(2).includes('mcp__proj__echo'));
    assert.ok(!existsSync(canary), 'the rewritten script ran');
  });

  it('says when a package runner is not pinned to an exact version', async () => {
    const dir = project(
      '[mcp_servers.loose]\ncommand = "npx"\nargs = ["-y", "some-mcp-server@latest"]\n' +
        '[mcp_servers.pinned]\ncommand = "npx"\nargs = ["-y", "@scope/some-mcp-server@1.2.3"]\n',
    );
    model.script({ output: [{ text: 'ok' }] });
    const s = await start(agentHome('responses', model.baseUrl), 'threadline_vscode', agentEnv);
    const turn = await startTurn(s, await startThread(s, dir), 'go');
    const loose = await trustQuestion(s, turn.id);
    assert.match(question(loose), /Unpinned: `npx some-mcp-server@latest`/);
    answerTrust(s, loose, DISTRUST_ANSWER);
    const pinned = await s.next(
      (m: Incoming) => m.method === 'item/tool/requestUserInput' && m.id !== undefined && m.id !== loose.id,
    );
    assert.match(question(pinned), /@scope\/some-mcp-server@1\.2\.3/);
    assert.doesNotMatch(question(pinned), /Unpinned/);
    answerTrust(s, pinned, DISTRUST_ANSWER);
    await turnCompleted(s, turn.id, 30_000);
  });
});
