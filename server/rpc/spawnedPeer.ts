// Whether a TCP connection to the listener comes from a process this server started: a command the
// agent ran (sandboxed with network on, or not sandboxed at all), an MCP server, a hook. Such a
// process must never drive the server that confines it, token or not. On Linux the kernel says who
// holds the socket: /proc/net/tcp{,6} gives the client end's inode, and /proc/<pid>/fd of each of
// our descendants shows whether one of them holds it. Elsewhere nothing as cheap tells, and the
// token (which sandboxed commands cannot read) is the only guard.
import { promises as fs } from 'node:fs';
import { isLoopback } from './listen';

export interface PeerSocket {
  remoteAddress?: string;
  remotePort?: number;
  localPort?: number;
}

/** Why the connection must be refused, or null when no process of ours opened it. */
export async function spawnedPeer(socket: PeerSocket): Promise<string | null> {
  if (process.platform !== 'linux') return null;
  const { remoteAddress = '', remotePort, localPort } = socket;
  const loopback = isLoopback(remoteAddress.replace(/^::ffff:/, ''));
  if (remotePort === undefined || localPort === undefined) return 'the connection has no address';
  const inodes = await clientInodes(remotePort, localPort);
  if (inodes === null) return loopback ? 'cannot read /proc/net/tcp to tell who connected' : null;
  // Not on this host's network: a remote client (--allow-remote), which only the token admits.
  if (inodes.length === 0) return loopback ? 'cannot tell which process connected' : null;
  // Inode 0: every process holding the socket has closed it, which is how a process would send its
  // requests and exit before this check looks.
  const closed = 'the connecting process has already closed its end';
  if (inodes.includes(0)) return closed;
  const held = await descendantHolding(new Set(inodes.map((inode) => `socket:[${inode}]`)));
  if (held !== null) return held;
  // A process of ours that exited while its files were being read held the socket until then:
  // its end is orphaned now, so it is looked at once more.
  const after = await clientInodes(remotePort, localPort);
  if (after === null || after.length !== inodes.length || after.some((inode, i) => inode !== inodes[i]))
    return closed;
  return null;
}

/** The inodes of this host's sockets going from `clientPort` to `serverPort`; null when unreadable. */
async function clientInodes(clientPort: number, serverPort: number): Promise<number[] | null> {
  const tables = await Promise.all(
    ['/proc/net/tcp', '/proc/net/tcp6'].map((path) => fs.readFile(path, 'utf8').catch(() => null)),
  );
  if (tables.every((table) => table === null)) return null;
  const inodes: number[] = [];
  for (const line of tables.flatMap((table) => (table ?? '').split('\n').slice(1))) {
    // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode ...
    const fields = line.trim().split(/\s+/);
    if (fields.length < 10) continue;
    if (portOf(fields[1]!) === clientPort && portOf(fields[2]!) === serverPort)
      inodes.push(Number(fields[9]));
  }
  return inodes;
}

const portOf = (address: string) => parseInt(address.slice(address.lastIndexOf(':') + 1), 16);

/** Why to refuse when one of our descendants holds one of `sockets` (or hides its files). */
async function descendantHolding(sockets: Set<string>): Promise<string | null> {
  for (const pid of await descendants(process.pid)) {
    // A thread can have its own file table, so each task's is read.
    const tasks = await fs.readdir(`/proc/${pid}/task`).catch(() => [] as string[]);
    for (const task of tasks) {
      const dir = `/proc/${pid}/task/${task}/fd`;
      let fds: string[];
      try {
        fds = await fs.readdir(dir);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
        // A process of ours that made itself undumpable hides its files from us: refuse.
        return `process ${pid}, started by this server, hides its open files`;
      }
      for (const fd of fds) {
        const link = await fs.readlink(`${dir}/${fd}`).catch(() => '');
        if (sockets.has(link)) return `the connection comes from process ${pid}, which this server started`;
      }
    }
  }
  return null;
}

/** Every process below `root`, from each process's parent in /proc/<pid>/stat. */
async function descendants(root: number): Promise<number[]> {
  const pids = (await fs.readdir('/proc')).filter((name) => /^\d+$/.test(name));
  const children = new Map<number, number[]>();
  await Promise.all(
    pids.map(async (name) => {
      const stat = await fs.readFile(`/proc/${name}/stat`, 'utf8').catch(() => null);
      if (stat === null) return;
      // pid (comm) state ppid ...: comm may hold spaces and parentheses, so count from the last ')'.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const siblings = children.get(ppid) ?? [];
      siblings.push(Number(name));
      children.set(ppid, siblings);
    }),
  );
  const found: number[] = [];
  for (let queue = [root]; queue.length > 0;) {
    const next = children.get(queue.shift()!) ?? [];
    found.push(...next);
    queue.push(...next);
  }
  return found;
}
