import { strict as assert } from 'node:assert';
import { originTag, threadOrigin } from '../../../../extension/threads/threadOrigin';

const home = '/home/me/.threadline';

describe('where a thread came from, as the tree shows it', () => {
  it('tells a thread of the Codex history by its rollout outside the server home', () => {
    const codex = threadOrigin(
      { path: '/home/me/.codex/sessions/2026/01/02/rollout-x.jsonl', originator: 'codex_cli_rs' },
      home,
    );
    assert.deepEqual(codex, { codexHistory: true, client: 'Codex CLI' });
    assert.equal(originTag(codex), 'Codex');
    const fromVsCode = threadOrigin(
      { path: '/home/me/.codex/sessions/r.jsonl', originator: 'codex_vscode' },
      home,
    );
    assert.equal(originTag(fromVsCode), 'Codex · Codex for VS Code');
  });

  it('shows nothing for our own threads, and the client for threads another client started', () => {
    const own = threadOrigin({ path: `${home}/sessions/r.jsonl`, originator: 'threadline_vscode' }, home);
    assert.deepEqual(own, { codexHistory: false, client: null });
    assert.equal(originTag(own), null);
    const other = threadOrigin({ path: `${home}/sessions/r.jsonl`, originator: 'my_script' }, home);
    assert.equal(originTag(other), 'my_script');
  });

  it('does not take a sibling folder sharing a prefix for the home, nor guess without one', () => {
    assert.equal(
      threadOrigin({ path: `${home}-old/sessions/r.jsonl`, originator: null }, home).codexHistory,
      true,
    );
    assert.equal(
      threadOrigin({ path: '/elsewhere/r.jsonl', originator: null }, undefined).codexHistory,
      false,
    );
    assert.equal(threadOrigin({ path: null, originator: null }, home).codexHistory, false);
  });
});
