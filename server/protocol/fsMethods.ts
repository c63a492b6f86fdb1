// Host filesystem methods (fs/*) and fuzzy file search, in the reference schema's shapes. Paths
// are absolute; file contents travel as base64.
import { Type } from '@sinclair/typebox';
import { Nullable, Opt, Params, Shape, StringEnum } from './schema';

const AbsolutePath = Type.String({ description: 'An absolute path on the host' });
const Empty = Shape({});

export const FsReadFileParams = Params({ path: AbsolutePath });
export const FsReadFileResponse = Shape({ dataBase64: Type.String() });

export const FsWriteFileParams = Params({ path: AbsolutePath, dataBase64: Type.String() });
export const FsWriteFileResponse = Empty;

export const FsCreateDirectoryParams = Params({
  path: AbsolutePath,
  /** Creates missing parents too; defaults to true. */
  recursive: Opt(Type.Boolean()),
});
export const FsCreateDirectoryResponse = Empty;

export const FsGetMetadataParams = Params({ path: AbsolutePath });
export const FsGetMetadataResponse = Shape({
  isDirectory: Type.Boolean(),
  isFile: Type.Boolean(),
  isSymlink: Type.Boolean(),
  createdAtMs: Type.Integer(),
  modifiedAtMs: Type.Integer(),
});

export const FsReadDirectoryParams = Params({ path: AbsolutePath });
export const FsReadDirectoryEntry = Shape({
  fileName: Type.String(),
  isDirectory: Type.Boolean(),
  isFile: Type.Boolean(),
});
export const FsReadDirectoryResponse = Shape({ entries: Type.Array(FsReadDirectoryEntry) });

export const FsRemoveParams = Params({
  path: AbsolutePath,
  /** Removes a directory's contents too; defaults to true. */
  recursive: Opt(Type.Boolean()),
  /** A missing path is not an error; defaults to true. */
  force: Opt(Type.Boolean()),
});
export const FsRemoveResponse = Empty;

export const FsCopyParams = Params({
  sourcePath: AbsolutePath,
  destinationPath: AbsolutePath,
  /** Required to copy a directory. */
  recursive: Type.Optional(Type.Boolean()),
});
export const FsCopyResponse = Empty;

export const FsWatchParams = Params({
  /** An existing file or directory; a directory is watched with everything under it. */
  path: AbsolutePath,
  /** Chosen by the client, unique on its connection; names the watch in fs/changed and fs/unwatch. */
  watchId: Type.String({ minLength: 1 }),
});
export const FsWatchResponse = Shape({ path: Type.String({ description: 'The canonical path watched' }) });

export const FsUnwatchParams = Params({ watchId: Type.String() });
export const FsUnwatchResponse = Empty;

export const fsWatchNotifications = {
  /** What changed under a watch, gathered over a short quiet period so a burst is one notification. */
  'fs/changed': Shape({ watchId: Type.String(), changedPaths: Type.Array(AbsolutePath) }),
} as const;

export const FuzzyFileSearchParams = Params({
  query: Type.String(),
  roots: Type.Array(Type.String()),
  cancellationToken: Opt(Type.String()),
});
export const FuzzyFileSearchResult = Shape({
  root: Type.String(),
  /** Relative to root, with forward slashes. */
  path: Type.String(),
  file_name: Type.String(),
  match_type: StringEnum(['file', 'directory']),
  score: Type.Integer({ minimum: 0 }),
  /** Character offsets into path that matched the query, for highlighting. */
  indices: Type.Optional(Nullable(Type.Array(Type.Integer({ minimum: 0 })))),
});
export const FuzzyFileSearchResponse = Shape({ files: Type.Array(FuzzyFileSearchResult) });

export const FuzzyFileSearchSessionStartParams = Params({
  sessionId: Type.String({ minLength: 1 }),
  roots: Type.Array(Type.String()),
});
export const FuzzyFileSearchSessionUpdateParams = Params({
  sessionId: Type.String(),
  query: Type.String(),
});
export const FuzzyFileSearchSessionStopParams = Params({ sessionId: Type.String() });

export const fuzzySearchNotifications = {
  'fuzzyFileSearch/sessionUpdated': Shape({
    sessionId: Type.String(),
    query: Type.String(),
    files: Type.Array(FuzzyFileSearchResult),
  }),
  'fuzzyFileSearch/sessionCompleted': Shape({ sessionId: Type.String() }),
} as const;
