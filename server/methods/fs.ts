// fs/*: the client's window onto the host filesystem, by absolute path. The client is the user's
// own editor, so these are not confined to a workspace; they refuse relative paths and answer
// every filesystem failure with an error that names the path and the reason.
import { cp, lstat, mkdir, readdir, readFile, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import { isAbsolute, join, parse } from 'node:path';
import type { ParamsOf, ResultOf } from '../protocol/methods';
import type { HandlerTable } from '../rpc/dispatcher';
import { ErrorCodes, invalidParams, RpcError } from '../rpc/rpcError';

const reasons: Record<string, string> = {
  ENOENT: 'no such file or directory',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EISDIR: 'is a directory',
  ENOTDIR: 'not a directory',
  EEXIST: 'already exists',
  ENOTEMPTY: 'directory not empty',
  ELOOP: 'too many symbolic links',
  ENAMETOOLONG: 'name too long',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on device',
};

/** A filesystem failure as a JSON-RPC error: the path, a readable reason, and the errno code as data. */
export function fsError(action: string, path: string, error: unknown): RpcError {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (!code) return new RpcError(ErrorCodes.internalError, `Cannot ${action} ${path}: ${String(error)}`);
  const reason = reasons[code] ?? (error as Error).message;
  return new RpcError(ErrorCodes.invalidRequest, `Cannot ${action} ${path}: ${reason}`, { code, path });
}

/** The path as given, or invalid params when it is not absolute: the one rule every fs/* path meets. */
export function absolute(field: string, path: string): string {
  if (!isAbsolute(path))
    throw invalidParams(`Invalid params: ${field}: expected an absolute path, got "${path}"`);
  return path;
}

// Buffer.from(…, 'base64') skips characters it does not know, which would write a silently
// different file; anything but canonical base64 is refused.
const base64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

async function attempt<T>(action: string, path: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw error instanceof RpcError ? error : fsError(action, path, error);
  }
}

export function fsHandlers(): HandlerTable {
  return {
    'fs/readFile': async (params: ParamsOf<'fs/readFile'>): Promise<ResultOf<'fs/readFile'>> => {
      const path = absolute('path', params.path);
      const data = await attempt('read', path, () => readFile(path));
      return { dataBase64: data.toString('base64') };
    },

    'fs/writeFile': async (params: ParamsOf<'fs/writeFile'>) => {
      const path = absolute('path', params.path);
      if (!base64.test(params.dataBase64))
        throw invalidParams('Invalid params: dataBase64: not valid base64');
      await attempt('write', path, () => writeFile(path, Buffer.from(params.dataBase64, 'base64')));
      return {};
    },

    'fs/createDirectory': async (params: ParamsOf<'fs/createDirectory'>) => {
      const path = absolute('path', params.path);
      await attempt('create directory', path, () => mkdir(path, { recursive: params.recursive ?? true }));
      return {};
    },

    'fs/getMetadata': async (params: ParamsOf<'fs/getMetadata'>): Promise<ResultOf<'fs/getMetadata'>> => {
      const path = absolute('path', params.path);
      const link = await attempt('read metadata of', path, () => lstat(path));
      // A dangling link still has metadata of its own; its target's kind is then neither.
      const target = link.isSymbolicLink() ? await stat(path).catch(() => undefined) : link;
      return {
        isDirectory: target?.isDirectory() ?? false,
        isFile: target?.isFile() ?? false,
        isSymlink: link.isSymbolicLink(),
        createdAtMs: Math.floor(link.birthtimeMs),
        modifiedAtMs: Math.floor(link.mtimeMs),
      };
    },

    'fs/readDirectory': async (
      params: ParamsOf<'fs/readDirectory'>,
    ): Promise<ResultOf<'fs/readDirectory'>> => {
      const path = absolute('path', params.path);
      const dirents = await attempt('read directory', path, () => readdir(path, { withFileTypes: true }));
      const entries = await Promise.all(
        dirents.map(async (dirent) => {
          const kind = dirent.isSymbolicLink()
            ? await stat(join(path, dirent.name)).catch(() => undefined)
            : dirent;
          return {
            fileName: dirent.name,
            isDirectory: kind?.isDirectory() ?? false,
            isFile: kind?.isFile() ?? false,
          };
        }),
      );
      entries.sort((a, b) => (a.fileName < b.fileName ? -1 : a.fileName > b.fileName ? 1 : 0));
      return { entries };
    },

    'fs/remove': async (params: ParamsOf<'fs/remove'>) => {
      const path = absolute('path', params.path);
      if (parse(path).root === path) throw invalidParams(`Invalid params: path: refusing to remove ${path}`);
      const recursive = params.recursive ?? true;
      const force = params.force ?? true;
      await attempt('remove', path, async () => {
        const found = await lstat(path).catch((error: NodeJS.ErrnoException) => {
          if (error.code === 'ENOENT' && force) return undefined;
          throw error;
        });
        if (!found) return;
        if (found.isDirectory() && !recursive) await rmdir(path);
        else await rm(path, { recursive, force });
      });
      return {};
    },

    'fs/copy': async (params: ParamsOf<'fs/copy'>) => {
      const source = absolute('sourcePath', params.sourcePath);
      const destination = absolute('destinationPath', params.destinationPath);
      await attempt('copy', source, async () => {
        const found = await lstat(source);
        if (found.isDirectory() && !params.recursive) {
          throw invalidParams(
            `Invalid params: recursive: ${source} is a directory; set recursive to copy it`,
          );
        }
        // Symbolic links are copied as links, never followed out of the tree being copied.
        await cp(source, destination, { recursive: found.isDirectory(), verbatimSymlinks: true });
      });
      return {};
    },
  };
}
