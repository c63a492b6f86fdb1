// Helpers for apply_patch tests: temp git repositories holding given files, and scripted model
// turns that call apply_patch.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './serverProcess';

/** A fresh git repository (nothing committed) holding these files. */
export function repoWith(files: Record<string, string>): string {
  const dir = tempDir('threadline-repo-');
  execFileSync('git', ['init', '-q', dir]);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

/** A model turn that calls apply_patch with this patch (freeform on Responses, `input` elsewhere). */
export const patchCall = (patch: string, callId = 'call_patch', custom = true) => ({
  output: [{ toolCall: { name: 'apply_patch', arguments: patch, callId, custom } }],
});

/** Updates README.md ("# Demo\nold line\n" → "new line") and adds src/hello.txt. */
export const UPDATE_README = [
  '*** Begin Patch',
  '*** Update File: README.md',
  '@@',
  ' # Demo',
  '-old line',
  '+new line',
  '*** Add File: src/hello.txt',
  '+hello',
  '*** End Patch',
].join('\n');
