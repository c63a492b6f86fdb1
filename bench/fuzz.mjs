// Sends random and mutated messages to the built server over stdio and over WebSocket and checks
// that it never exits or stalls, answers every request exactly once, and gives its memory back.
// Usage: node bench/fuzz.mjs [count per transport, default 50000]   (build first: npm run build)
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebSocket } from 'ws';

const count = Number(process.argv[2] ?? 50_000);
const server = new URL('../dist/server.js', import.meta.url).pathname;
const methods = [
  'thread/list',
  'thread/read',
  'thread/start',
  'thread/name/set',
  'thread/archive',
  'nope/nothing',
  'initialize',
  'thread/loaded/list',
];

let seed = 12345;
const random = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
const pick = (list) => list[Math.floor(random() * list.length)];
const junk = () =>
  pick([null, 0, -1, 1e308, '', 'x'.repeat(Math.floor(random() * 5000)), [], {}, true, { a: [1, { b: 2 }] }]);

function deep(depth) {
  let value = {};
  for (let i = 0; i < depth; i++) value = { n: value };
  return value;
}

// Each case: the text to send, and the id a reply must carry (undefined when no reply is due).
function makeCase(i) {
  const id = `f${i}`;
  switch (Math.floor(random() * 10)) {
    case 0: {
      // truncated JSON: unparseable, answered with id null
      const text = JSON.stringify({ id, method: pick(methods), params: { threadId: 'x' } });
      return { text: text.slice(0, Math.max(1, Math.floor(random() * (text.length - 1)))), reply: null };
    }
    case 1: // wrong types everywhere
      return {
        text: JSON.stringify({
          id,
          method: pick(methods),
          params: { threadId: junk(), limit: junk(), cursor: junk() },
        }),
        reply: id,
      };
    case 2: // huge string
      return {
        text: JSON.stringify({
          id,
          method: 'thread/list',
          params: { searchTerm: 'y'.repeat(200_000 + Math.floor(random() * 100_000)) },
        }),
        reply: id,
      };
    case 3: // deep nesting
      return {
        text: JSON.stringify({ id, method: 'thread/start', params: deep(200 + Math.floor(random() * 2000)) }),
        reply: id,
      };
    case 4: // responses to nothing
      return { text: JSON.stringify({ id: Math.floor(random() * 1e6), result: junk() }), reply: undefined };
    case 5: {
      // notifications, known and unknown; params that are not an object make the message invalid
      const params = junk();
      const valid = params === null || typeof params === 'object';
      const method = pick(['initialized', 'x/y', '$/cancelRequest']);
      return { text: JSON.stringify({ method, params }), reply: valid ? undefined : null };
    }
    case 6: {
      // well-formed JSON that is not a message; an error keeps the id when one is usable
      const [value, reply] = pick([
        [[1, 2], null],
        [42, null],
        ['str', null],
        [{ id }, id],
        [{ id, method: 7 }, id],
      ]);
      return { text: JSON.stringify(value), reply };
    }
    case 7: {
      // random bytes
      let s = '';
      for (let k = 0; k < 1 + random() * 200; k++) s += String.fromCharCode(32 + Math.floor(random() * 90));
      return { text: s.replace(/\n/g, ' '), reply: s.trim() === '' ? undefined : null };
    }
    default: // well-formed requests with plausible params
      return {
        text: JSON.stringify({
          id,
          method: pick(methods),
          params: pick([
            undefined,
            null,
            {},
            { limit: 2 },
            { threadId: '00000000-0000-7000-8000-000000000000' },
          ]),
        }),
        reply: id,
      };
  }
}

function spawnServer(args, home) {
  return spawn(process.execPath, [server, 'app-server', ...args], {
    env: { ...process.env, THREADLINE_HOME: home, THREADLINE_LOG: 'error' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}

function rssOf(pid) {
  return import('node:fs').then((fs) => {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)[1]) / 1024;
  });
}

async function run(transport) {
  const home = mkdtempSync(join(tmpdir(), 'threadline-fuzz-'));
  // Also when a run throws halfway (the end of run() removes it on success).
  process.on('exit', () => rmSync(home, { recursive: true, force: true }));
  const args = transport === 'ws' ? ['--listen', 'ws://127.0.0.1:0'] : [];
  const child = spawnServer(args, home);
  let exited = false;
  child.on('exit', () => (exited = true));
  let stderr = '';
  child.stderr.on('data', (c) => (stderr += c));

  const replies = new Map();
  let nullReplies = 0;
  const onMessage = (msg) => {
    if (msg.id === null) nullReplies++;
    else if (msg.id !== undefined && msg.method === undefined)
      replies.set(msg.id, (replies.get(msg.id) ?? 0) + 1);
  };
  let send;
  let close;
  if (transport === 'stdio') {
    let tail = '';
    child.stdout.on('data', (chunk) => {
      const lines = (tail + chunk).split('\n');
      tail = lines.pop();
      for (const line of lines) if (line) onMessage(JSON.parse(line));
    });
    send = (text) =>
      new Promise((resolve) =>
        child.stdin.write(text + '\n') ? resolve() : child.stdin.once('drain', resolve),
      );
    close = () => child.stdin.end();
  } else {
    const url = await new Promise((resolve) => {
      const onData = (c) => {
        const m = /listening on (ws:\/\/\S+)/.exec(stderr + c);
        if (m) resolve(m[1]);
      };
      child.stderr.on('data', onData);
    });
    // The token the server made for this start, printed on the line before.
    const token = /token: (\S+)/.exec(stderr)[1];
    const socket = new WebSocket(url, {
      maxPayload: 64 * 1024 * 1024,
      headers: { Authorization: `Bearer ${token}` },
    });
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    socket.on('message', (data) => onMessage(JSON.parse(String(data))));
    send = (text) => new Promise((resolve) => socket.send(text, resolve));
    close = () => {
      socket.close();
      child.kill('SIGTERM');
    };
  }

  await send(
    JSON.stringify({
      id: 'init',
      method: 'initialize',
      params: { clientInfo: { name: 'fuzz', version: '1' } },
    }),
  );
  await new Promise((r) => setTimeout(r, 300));
  const rssBefore = await rssOf(child.pid);
  let rssPeak = rssBefore;
  const expected = new Set();
  const sentText = new Map();
  let expectedNull = 0;
  const started = Date.now();
  for (let i = 0; i < count; i++) {
    const c = makeCase(i);
    if (c.reply === null) expectedNull++;
    else if (c.reply !== undefined) {
      expected.add(c.reply);
      sentText.set(c.reply, c.text);
    }
    await send(c.text);
    if (i % 500 === 0) rssPeak = Math.max(rssPeak, await rssOf(child.pid));
    if (exited) break;
  }
  // Every due reply must arrive; a stall shows up as this deadline passing.
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline && [...expected].some((id) => !replies.has(id)))
    await new Promise((r) => setTimeout(r, 50));
  const elapsed = (Date.now() - started) / 1000;
  const missing = [...expected].filter((id) => !replies.has(id));
  const duplicated = [...replies].filter(([, n]) => n > 1).map(([id]) => id);
  for (const id of missing.slice(0, 3)) console.log(`  unanswered: ${sentText.get(id).slice(0, 300)}`);
  // V8's memory reducer waits for the process to go idle before it hands memory back.
  await new Promise((r) => setTimeout(r, Number(process.env.FUZZ_IDLE_MS ?? 10_000)));
  const rssAfter = exited ? NaN : await rssOf(child.pid);
  // A final well-formed request proves the server still answers.
  const aliveId = 'alive';
  await send(JSON.stringify({ id: aliveId, method: 'thread/loaded/list' }));
  await new Promise((r) => setTimeout(r, 500));
  const answersAfter = replies.has(aliveId);
  close();
  await new Promise((r) => (exited ? r() : child.once('exit', r)));
  rmSync(home, { recursive: true, force: true });
  console.log(
    `${transport.padEnd(5)} sent ${count} in ${elapsed.toFixed(1)} s | requests due ${expected.size}, answered ${expected.size - missing.length}, ` +
      `missing ${missing.length}, answered twice ${duplicated.length} | id-null errors ${nullReplies} (≥ ${expectedNull} due) | ` +
      `alive after: ${answersAfter} | RSS before ${rssBefore.toFixed(1)} MiB, peak ${rssPeak.toFixed(1)} MiB, after ${rssAfter.toFixed(1)} MiB`,
  );
  return missing.length === 0 && duplicated.length === 0 && answersAfter;
}

const transports = (process.env.FUZZ_TRANSPORTS ?? 'stdio,ws').split(',');
let ok = true;
for (const transport of transports) ok = (await run(transport)) && ok;
process.exitCode = ok ? 0 : 1;
