// A folder named the way cards and items name it, so a path reads the same wherever it appears.
import { shortPath } from './items/FileChange';

/**
 * A folder as the user knows it: the workspace folder's name and the path inside it, the full path in
 * the tooltip; a folder outside the workspace in full. It wraps rather than being cut.
 */
export function FolderPath({ path, root }: { path: string; root: string | undefined }) {
  const inside = root && (path === root || path.startsWith(root.endsWith('/') ? root : `${root}/`));
  const folder = root
    ?.replace(/[\\/]+$/, '')
    .split(/[\\/]/)
    .pop();
  const shown = inside ? [folder, shortPath(path, root)].filter((p) => p && p !== path).join('/') : path;
  return (
    <code className="tl-prompt-path" title={path}>
      {shown || path}
    </code>
  );
}
