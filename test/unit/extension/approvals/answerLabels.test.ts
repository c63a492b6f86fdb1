// The diff editor's answers (title bar, answer bar, keys) are package.json's commands: their titles are
// the cards' labels from the one answer table, and their keys the cards' keys held with Alt.
import * as assert from 'node:assert/strict';
import { answerLooks, keyName, type AnswerKind } from '../../../../webview/prompts/answers';
import { packageJson } from '../../../support/paths';

interface Contributes {
  commands: { command: string; title: string }[];
  keybindings: { command: string; key: string; when?: string }[];
  menus: Record<string, { command: string; when?: string }[]>;
}

const commands: Record<string, AnswerKind> = {
  'threadline.approval.accept': 'accept',
  'threadline.approval.acceptForSession': 'acceptForSession',
  'threadline.approval.decline': 'decline',
  'threadline.approval.cancelTurn': 'cancel',
};

describe('the diff editor’s approval answers', () => {
  const contributes = (packageJson as unknown as { contributes: Contributes }).contributes;

  it('are titled with the cards’ labels', () => {
    for (const [command, kind] of Object.entries(commands))
      assert.equal(
        contributes.commands.find((c) => c.command === command)?.title,
        answerLooks[kind].label,
        command,
      );
  });

  it('show in the title bar and in the answer bar above the proposal', () => {
    const shown = (menu: string) => contributes.menus[menu]?.map((m) => m.command);
    assert.deepEqual(shown('editor/title'), Object.keys(commands));
    assert.deepEqual(shown('comments/commentThread/additionalActions'), Object.keys(commands));
  });

  it('take the cards’ keys held with Alt, only in a pending proposal’s diff', () => {
    for (const [command, kind] of Object.entries(commands)) {
      const binding = contributes.keybindings.find((k) => k.command === command);
      assert.equal(
        binding?.key,
        `alt+${keyName(answerLooks[kind].shortcut).toLowerCase()}`.replace('esc', 'escape'),
      );
      assert.match(binding?.when ?? '', /resource in threadline\.pendingProposedUris/);
    }
  });
});
