// Where V8's code cache of dist/server-core.js lives, and how it is read and replaced.
//
// A code cache is code: whoever can write it chooses what the server runs. So it is kept only in a
// folder that this user alone can write: beside the bundle (the extension's install, so a fresh home,
// such as a first start or a test, starts from it too) when this user owns the install, else in the
// home. The file name carries V8's version and the bundle's build stamp, so a cache from another
// Node or another build is never offered to V8; files of other builds are removed when a new one is
// written. Two servers starting at once each write a temp file and rename it over the other's.
// V8 checks a cache's header but not its body (a flipped byte in it crashes the process), so the
// file starts with a CRC-32 of the rest: a damaged cache is replaced, never run.
import {
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import * as zlib from 'node:zlib';

const PREFIX = 'server-core-';

/** The build stamp esbuild.mjs writes at the start of the core bundle: a hash of its content. */
export function buildStamp(source: string): string | undefined {
  return /^\/\*threadline-core:([0-9a-f]{16})\*\//.exec(source)?.[1];
}

/** zlib's CRC-32 (Node 20.15 and later; an older Node keeps no cache). */
const checksum = (data: Buffer) => zlib.crc32(data);

export function canCache(): boolean {
  return typeof zlib.crc32 === 'function';
}

export class CodeCache {
  private readonly folders: string[];
  private readonly name: string;

  constructor(bundleDir: string, home: string, stamp: string) {
    this.name = `${PREFIX}${process.versions.v8}-${stamp}.v8`;
    const beside = ownedByUser(bundleDir) ? [join(bundleDir, 'code-cache')] : [];
    this.folders = [...beside, join(home, 'cache')];
  }

  /** The cache of this build from the first folder that has one, with where it was found. */
  read(): { data: Buffer | undefined; folder: string } | undefined {
    for (const folder of this.folders) {
      if (!userOnly(folder)) continue;
      let file: Buffer;
      try {
        file = readFileSync(join(folder, this.name));
      } catch {
        continue; // none in this folder
      }
      const data = file.subarray(4);
      return { data: file.length > 4 && checksum(data) === file.readUInt32LE(0) ? data : undefined, folder };
    }
    return undefined;
  }

  /** Writes the cache into the first folder that takes it (`prefer` first: where a stale one was). */
  write(data: Buffer, prefer?: string): void {
    const folders = prefer ? [prefer, ...this.folders.filter((f) => f !== prefer)] : this.folders;
    for (const folder of folders) {
      const temp = join(folder, `${this.name}.${process.pid}.tmp`);
      try {
        mkdirSync(folder, { recursive: true, mode: 0o700 });
        if (!userOnly(folder)) continue;
        const sum = Buffer.alloc(4);
        sum.writeUInt32LE(checksum(data));
        writeFileSync(temp, Buffer.concat([sum, data]), { mode: 0o600 });
        renameSync(temp, join(folder, this.name));
        this.removeOtherBuilds(folder);
        return;
      } catch {
        try {
          unlinkSync(temp);
        } catch {
          // never written
        }
      }
    }
  }

  private removeOtherBuilds(folder: string): void {
    const stamp = this.name.slice(this.name.lastIndexOf('-'));
    for (const file of readdirSync(folder)) {
      if (!file.startsWith(PREFIX) || !file.endsWith('.v8') || file.endsWith(stamp)) continue;
      try {
        unlinkSync(join(folder, file));
      } catch {
        // another server removed it first
      }
    }
  }
}

/** Whether this user owns the folder (Windows has no owner ids: a user's install is the user's). */
function ownedByUser(folder: string): boolean {
  if (!process.getuid) return true;
  try {
    return statSync(folder).uid === process.getuid();
  } catch {
    return false;
  }
}

/** A real folder of this user's that nobody else may write into. */
function userOnly(folder: string): boolean {
  try {
    const stat = lstatSync(folder);
    if (!stat.isDirectory()) return false;
    return !process.getuid || (stat.uid === process.getuid() && (stat.mode & 0o022) === 0);
  } catch {
    return false;
  }
}
