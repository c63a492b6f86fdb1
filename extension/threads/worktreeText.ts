// What an apply of a worktree thread did, in words for a notification (pure: no vscode).
import type { ResultOf } from '../../server/protocol/methods';

/** One line per outcome of an apply, for the notification. */
export function applySummary(result: ResultOf<'thread/worktree/apply'>): string {
  if (result.mode === 'none') return `Nothing to apply: ${result.branch} has no changes.`;
  const how = result.mode === 'merge' ? 'merged (fast-forward)' : 'applied as a patch';
  const parts = [`${result.applied.length + result.merged.length} file(s) from ${result.branch} ${how}.`];
  if (result.merged.length) parts.push(`Merged with your uncommitted changes: ${result.merged.join(', ')}.`);
  if (result.conflicts.length) {
    const kept = result.conflicts.map((c) =>
      c.resolution === 'markers'
        ? `${c.path} (conflict markers)`
        : c.resolution === 'theirsBeside'
          ? `${c.path} (the thread's version in ${c.theirsPath})`
          : `${c.path} (yours kept: ${c.reason})`,
    );
    parts.push(`Conflicts, both sides kept: ${kept.join(', ')}.`);
  }
  if (result.skipped.length)
    parts.push(`Skipped: ${result.skipped.map((s) => `${s.path} (${s.reason})`).join(', ')}.`);
  return parts.join(' ');
}

/** What removing a worktree would lose, for a confirmation's detail (at most 30 lines of it). */
export function lossDetail(preview: ResultOf<'thread/worktree/discard'>): string {
  const lost = [
    ...preview.uncommittedFiles.map((file) => `• ${file} (uncommitted)`),
    ...preview.commits.map((c) => `• commit ${c.sha.slice(0, 7)} ${c.subject}`),
  ];
  if (lost.length === 0) return 'The worktree has no changes; nothing is lost.';
  const more = lost.length > 30 ? `\n… and ${lost.length - 30} more` : '';
  return `This is lost for good:\n${lost.slice(0, 30).join('\n')}${more}`;
}
