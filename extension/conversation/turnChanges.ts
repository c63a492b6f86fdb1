// Review changes and Undo changes on a turn: what the turn changed on disk, as the server's
// checkpoint recorded it (thread/turn/changes/list), in one multi-file diff editor; and putting it
// back (thread/turn/changes/revert) after a confirmation that lists the files, saying afterwards
// which files were skipped and why.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ResultOf } from '../../server/protocol/methods';
import type { ThreadlineServer } from '../server/threadlineServer';
import type { DiffViews } from './diffViews';

const UNDO = 'Undo Changes';

/** The server can list and undo a turn's file changes (Threadline's own, experimental). */
export function supportsTurnChanges(server: ThreadlineServer): boolean {
  return server.info?.threadline?.turnChanges === true;
}

export class TurnChanges {
  constructor(
    private readonly server: ThreadlineServer,
    private readonly diffs: DiffViews,
  ) {}

  /** Opens the turn's changes; `fallbackDiff` (turn/diff/updated) serves a server without checkpoints. */
  async review(threadId: string, turnId: string, cwd: string, fallbackDiff: string): Promise<void> {
    if (!supportsTurnChanges(this.server)) {
      if (fallbackDiff) await this.diffs.openTurnChanges(cwd, fallbackDiff);
      return;
    }
    const { files } = await this.list(threadId, turnId);
    if (files.length === 0) {
      void vscode.window.showInformationMessage('This turn changed no files that Threadline recorded.');
      return;
    }
    await this.diffs.openTurnChanges(cwd, files.map((file) => file.diff).join(''));
  }

  async undo(threadId: string, turnId: string, cwd: string): Promise<void> {
    if (!supportsTurnChanges(this.server)) {
      void vscode.window.showInformationMessage('This server cannot undo a turn’s changes.');
      return;
    }
    const { files, notes } = await this.list(threadId, turnId);
    if (files.length === 0) {
      void vscode.window.showInformationMessage('This turn changed no files that Threadline recorded.');
      return;
    }
    const shown = (file: string) => path.relative(cwd, file) || file;
    const lines = files.map((file) =>
      file.conflict ? `${shown(file.path)} — will be skipped: ${file.conflict}` : shown(file.path),
    );
    const detail = [...lines, ...notes.map((note) => `Note: ${note}`)].join('\n');
    const count = files.length === 1 ? '1 file' : `${files.length} files`;
    const choice = await vscode.window.showWarningMessage(
      `Undo this turn's changes to ${count}?`,
      { modal: true, detail },
      UNDO,
    );
    if (choice !== UNDO) return;
    const result = await this.server.request('thread/turn/changes/revert', { threadId, turnId });
    const done = `Undid the changes to ${result.reverted.length === 1 ? '1 file' : `${result.reverted.length} files`}.`;
    if (result.skipped.length === 0) {
      void vscode.window.showInformationMessage(done);
      return;
    }
    const skipped = result.skipped.map((s) => `${shown(s.path)} (${s.reason})`).join('; ');
    void vscode.window.showWarningMessage(
      `${result.reverted.length ? done : 'No file was changed.'} Skipped: ${skipped}.`,
    );
  }

  private list(threadId: string, turnId: string): Promise<ResultOf<'thread/turn/changes/list'>> {
    return this.server.request('thread/turn/changes/list', { threadId, turnId });
  }
}
