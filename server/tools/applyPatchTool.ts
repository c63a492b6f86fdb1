// apply_patch: the model edits files with a patch. The patch is planned in memory first (a patch
// that does not fit is the model's error to fix, reported before anything is shown), then shown as
// a fileChange item, approved when the sandbox policy says so, and written all or none. Each
// applied patch updates the turn's aggregated diff (turn/diff/updated).
import { randomUUID } from 'node:crypto';
import { parseArguments, ToolInputError, type AgentTool, type ToolCall } from '../agent/tool';
import type { FileChangeItem, PatchApplyStatus } from '../protocol/fileChange';
import { ChunkMismatchError } from './applyPatch/applyChunks';
import { commitWrites, PatchWriteError } from './applyPatch/commitWrites';
import { parsePatch, PatchSyntaxError } from './applyPatch/parsePatch';
import { patchVerdict } from './applyPatch/patchApproval';
import { planPatch, PatchPlanError, shownPath, type PatchPlan } from './applyPatch/planPatch';
import { turnDiffOf, writesDiff } from './applyPatch/turnDiff';
import { withUserEdits, type EditedPlan } from './applyPatch/userEdits';

const DESCRIPTION = `Edits files with a patch. Send the patch text itself (not JSON), in this format:

*** Begin Patch
*** Add File: path/new.txt
+every line of the new file, each starting with +
*** Delete File: path/old.txt
*** Update File: path/file.py
*** Move to: path/renamed.py      (optional: rename the file)
@@ def enclosing_function():      (optional text after @@: a line above the change, to find the place)
 unchanged line before (context, starts with a space)
-line removed
+line added
 unchanged line after
*** End Patch

Give about three unchanged lines above and below each change so it is found unambiguously; use more
@@ lines (a class, then a method) when that is not enough. Start each further change in the same file
with its own @@ line. Put "*** End of File" after a change that ends at the end of the file. Paths are
relative to the working directory. Every file in a patch is changed, or none is.`;

// The patch language as a Lark grammar, so the Responses API constrains the model's output to it.
const GRAMMAR = String.raw`start: "*** Begin Patch" LF file_op+ "*** End Patch" LF?
file_op: add_file | delete_file | update_file
add_file: "*** Add File: " path LF added_line+
delete_file: "*** Delete File: " path LF
update_file: "*** Update File: " path LF move_to? chunk*
move_to: "*** Move to: " path LF
chunk: (header_line | diff_line)+ end_of_file?
header_line: ("@@" | "@@ " /(.+)/) LF
diff_line: (" " | "-" | "+") /(.*)/ LF
added_line: "+" /(.*)/ LF
end_of_file: "*** End of File" LF
path: /(.+)/
%import common.LF
`;

export const applyPatchTool: AgentTool = {
  spec: {
    kind: 'freeform',
    name: 'apply_patch',
    description: DESCRIPTION,
    format: { type: 'grammar', syntax: 'lark', definition: GRAMMAR },
  },

  async run(call, context) {
    const plan = await planFor(call, context.cwd);
    const paths = plan.writes.map((write) => write.path);
    const verdict = await patchVerdict(plan.writes, context.permissions, context.cwd, (targets) =>
      context.approvals.filesAllowedForSession(targets),
    );
    if (verdict.kind === 'refuse') return { output: `apply_patch refused: ${verdict.reason}`, isError: true };
    const item: FileChangeItem = {
      type: 'fileChange',
      id: randomUUID(),
      changes: plan.changes,
      status: 'inProgress',
    };
    // What is written: the plan, or the user's edited version of it.
    let applied: EditedPlan = { plan, edited: [] };
    const finish = async (status: PatchApplyStatus, output: string) => {
      context.emit.itemDelta('item/fileChange/outputDelta', { itemId: item.id, delta: output });
      await context.emit.itemCompleted({ ...item, changes: applied.plan.changes, status });
      return { output, isError: status !== 'completed' };
    };
    context.emit.itemStarted(item);
    if (verdict.kind === 'ask') {
      const decision = await context.approvals.fileChange({
        itemId: item.id,
        paths,
        reason: verdict.reason,
        grantRoot: verdict.grantRoot,
      });
      if (decision.outcome !== 'accept') {
        return finish('declined', 'The user declined this patch; no file was changed.');
      }
      if (decision.edits?.length) applied = withUserEdits(plan, decision.edits);
    }
    const recordCheckpoint = await context.checkpoint.beforePatch(applied.plan.writes);
    try {
      await commitWrites(applied.plan.writes);
    } catch (error) {
      if (error instanceof PatchWriteError) return finish('failed', `apply_patch failed: ${error.message}`);
      throw error;
    }
    await recordCheckpoint();
    const diff = turnDiffOf(context.emit, context.cwd);
    diff.record(applied.plan.writes);
    context.emit.turnEvent('turn/diff/updated', { diff: diff.diff() });
    return finish('completed', outcome(applied, context.cwd));
  },
};

/** The patch text, parsed and planned; what the model got wrong becomes a ToolInputError. */
async function planFor(call: ToolCall, cwd: string): Promise<PatchPlan> {
  const text = call.custom ? call.arguments : parseArguments(call).input;
  if (typeof text !== 'string') throw new ToolInputError('apply_patch needs `input`, the patch text');
  try {
    return await planPatch(parsePatch(text), cwd);
  } catch (error) {
    if (
      error instanceof PatchSyntaxError ||
      error instanceof PatchPlanError ||
      error instanceof ChunkMismatchError
    ) {
      throw new ToolInputError(`apply_patch: ${error.message}`);
    }
    throw error;
  }
}

/** What the model is told; after the user's edits, also what was really written, as a diff. */
function outcome({ plan, edited }: EditedPlan, cwd: string): string {
  if (edited.length === 0) return summary(plan, cwd);
  const note = plan.writes.length
    ? `The user edited your patch before accepting it, so the files differ from what you proposed. This is what was applied (from the files before the patch to what they hold now); build on it, not on your patch:\n${writesDiff(plan.writes, cwd)}`
    : 'The user edited your patch before accepting it and kept none of its changes: no file was changed.';
  return plan.changes.length ? `${summary(plan, cwd)}\n\n${note}` : note;
}

/** The files changed, one letter each (A added, M modified, D deleted). */
function summary(plan: PatchPlan, cwd: string): string {
  const lines = plan.changes.map((change) => {
    const kind = change.kind;
    const letter = kind.type === 'add' ? 'A' : kind.type === 'delete' ? 'D' : 'M';
    const path = kind.type === 'update' && kind.move_path ? kind.move_path : change.path;
    return `${letter} ${shownPath(cwd, path)}`;
  });
  return `Success. Updated the following files:\n${lines.join('\n')}`;
}
