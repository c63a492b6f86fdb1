// Helpers for apply_patch tests: temp git repositories holding given files, and scripted model
// turns that call apply_patch.
import { strict as assert } from 'node:assert';
import { execFileSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, watch, writeFileSync } from 'node:fs';
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

/**
 * The same patch for codex, which offers a model it does not know only its shell and takes a patch run
 * there as a file change.
 */
export const shellPatchCall = (patch: string, callId = 'call_patch') => ({
  output: [
    {
      toolCall: {
        name: 'exec_command',
        arguments: JSON.stringify({ cmd: `apply_patch <<'EOF'\n${patch}\nEOF` }),
        callId,
      },
    },
  ],
});

/** Updates README.md ("# Demo\nold line\n" → "new line"), nothing else. */
export const EDIT_README = [
  '*** Begin Patch',
  '*** Update File: README.md',
  '@@',
  ' # Demo',
  '-old line',
  '+new line',
  '*** End Patch',
].join('\n');

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

const largeName = (i: number) => `f${String(i).padStart(3, '0')}.txt`;
const LARGE_NAME = /^f\d{3}\.txt$/;
/** 64 KiB a file, so writing many of them takes long enough to be caught in the middle. */
const largeBody = (i: number, word: string) => `${word} header ${i}\n${'filler line of text\n'.repeat(3200)}`;

export interface LargeFiles {
  /** The patch that turns each file's "old header i" into "new header i". */
  patch: string;
  /** Whether file i is as it was or as the patch made it; fails the test when it is neither. */
  state(i: number): 'old' | 'new';
  /** Every file's state, in order. */
  states(): ('old' | 'new')[];
  /** What else is in their folder (temporary siblings left by a kill). */
  strays(): string[];
}

/** `count` large files in `dir`/src, each with a header line the patch rewrites. */
export function largeFiles(dir: string, count: number): LargeFiles {
  const src = join(dir, 'src');
  mkdirSync(src);
  for (let i = 0; i < count; i++) writeFileSync(join(src, largeName(i)), largeBody(i, 'old'));
  const sections = Array.from({ length: count }, (_, i) => [
    `*** Update File: src/${largeName(i)}`,
    '@@',
    `-old header ${i}`,
    `+new header ${i}`,
  ]).flat();
  const state = (i: number) => {
    const text = readFileSync(join(src, largeName(i)), 'utf8');
    if (text === largeBody(i, 'old')) return 'old';
    assert.equal(text, largeBody(i, 'new'), `${largeName(i)} is neither old nor new`);
    return 'new';
  };
  return {
    patch: ['*** Begin Patch', ...sections, '*** End Patch'].join('\n'),
    state,
    states: () => Array.from({ length: count }, (_, i) => state(i)),
    strays: () => readdirSync(src).filter((file) => !LARGE_NAME.test(file)),
  };
}

/** Kills the process (SIGKILL) the moment the first of the large files in `dir`/src is replaced. */
export function killAtFirstReplacement(dir: string, child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    const watcher = watch(join(dir, 'src'), (_event, file) => {
      // The first rename of a temporary sibling over its file: kill before the next one.
      if (!file || !LARGE_NAME.test(file)) return;
      child.kill('SIGKILL');
      watcher.close();
      resolve();
    });
  });
}
