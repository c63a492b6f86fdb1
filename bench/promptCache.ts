// How much of each model request a provider's prompt cache can serve, over one scripted multi-turn
// task run through the built server against the recording model server, on each wire: read, patch,
// test, a policy change, an AGENTS.md edit, a new skill, a restart and resume on the next day (the
// server's clock moved by faketime, `apt-get install faketime`; without it the day stays and the
// bench says so), a 12-call parallel step and a compaction.
// Per request it prints, in the provider's own order (Responses: instructions, tools, input; Chat:
// tools, messages; Anthropic: tools, system, messages, cache markers left out), the byte share of
// the request that is a prefix of the previous request ("prefix%"), the share of the previous
// request this one keeps as its prefix ("kept%": 100 when it only appends, whatever it appends),
// and the estimated billed input tokens (4 bytes a token; cached tokens cost 10%; on Anthropic a
// cache write costs 125%). The targets are checked on kept%: prefix% also falls when a step
// appends much (12 tool results), which is new input, not a cache miss.
// Usage: npx tsx bench/promptCache.ts   (build first; BENCH_SERVER=/other/dist/server.js to compare)
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { benchServer, rpcChild } from './rpcChild';

const FAKETIME = ['/usr/bin/faketime', '/usr/local/bin/faketime'].find((path) => existsSync(path));
import { startModelServer, type ModelServer } from '../test/fixtures/modelServer/server';
import type { RecordedRequest, ScriptedResponse, WireFormat } from '../test/fixtures/modelServer/scenario';
import { agentEnv, scriptedConfig } from '../test/support/agent';
import { tempDir } from '../test/support/tempDirs';

const wires = (process.env.BENCH_WIRES ?? 'responses,chat,anthropic').split(',') as WireFormat[];
const BYTES_PER_TOKEN = 4;
/** Anthropic caches nothing shorter (Sonnet and Opus; Haiku needs 2,048). */
const MIN_CACHED_TOKENS = 1024;
/** How many blocks before a breakpoint Anthropic looks for an earlier write. */
const LOOKBACK_BLOCKS = 20;

const call = (name: string, args: unknown, callId: string, custom = false) => ({
  toolCall: { name, arguments: typeof args === 'string' ? args : JSON.stringify(args), callId, custom },
});
const say = (text: string): ScriptedResponse => ({ output: [{ text }] });
const patch = (from: string, to: string) =>
  `*** Begin Patch\n*** Update File: sum.js\n@@\n-${from}\n+${to}\n*** End Patch\n`;

/** One turn of the task: what the user says, what changes first, and what the model answers. */
interface Step {
  label: string;
  before?: (paths: Paths) => void;
  /** A request the client sends first. */
  client?: [string, Record<string, unknown>];
  turn: { text: string; overrides?: Record<string, unknown> } | 'compact' | 'restart';
  answers: ScriptedResponse[];
}
interface Paths {
  home: string;
  cwd: string;
}

const STEPS: Step[] = [
  {
    label: 'fix the bug',
    turn: { text: 'The test fails. Find out why and fix it.' },
    answers: [
      { output: [call('exec_command', { cmd: 'cat sum.js test.js' }, 'c1')] },
      { output: [call('apply_patch', patch('  return a - b;', '  return a + b;'), 'c2', true)] },
      { output: [call('exec_command', { cmd: 'node test.js' }, 'c3')] },
      say('Fixed: `sum` subtracted instead of adding. The test passes now.'),
    ],
  },
  {
    label: 'second turn',
    turn: { text: 'Thanks. Does anything else use sum?' },
    answers: [{ output: [call('exec_command', { cmd: 'grep -rn sum .' }, 'c4')] }, say('Only the test.')],
  },
  {
    label: 'policy change',
    turn: { text: 'Run the tests once more.', overrides: { approvalPolicy: 'never' } },
    answers: [{ output: [call('exec_command', { cmd: 'node test.js' }, 'c5')] }, say('Still green.')],
  },
  {
    label: 'AGENTS.md edited',
    before: ({ cwd }) =>
      writeFileSync(join(cwd, 'AGENTS.md'), 'Run `node test.js` after every change.\nUse two spaces.\n'),
    turn: { text: 'I updated the notes; anything to do?' },
    answers: [say('Nothing new to do; I will keep to two spaces.')],
  },
  {
    label: 'new skill',
    before: ({ home }) => {
      mkdirSync(join(home, 'skills', 'release'), { recursive: true });
      writeFileSync(
        join(home, 'skills', 'release', 'SKILL.md'),
        '---\nname: release\ndescription: Tags and publishes a release\n---\n\nBump the version, tag it, push the tag.\n',
      );
    },
    // The editor reloads the list when it sees the new SKILL.md.
    client: ['skills/list', { forceReload: true }],
    turn: { text: 'How do we release this?' },
    answers: [{ output: [call('read_skill', { name: 'release' }, 'c6')] }, say('Bump, tag, push the tag.')],
  },
  { label: 'restart', turn: 'restart', answers: [] },
  {
    label: 'next day: resume, 12 parallel calls',
    turn: { text: 'Count the lines of every file.' },
    answers: [
      {
        output: Array.from({ length: 12 }, (_, i) =>
          call('exec_command', { cmd: `wc -l f${i}.txt` }, `p${i}`),
        ),
      },
      say('Every file has 3 lines.'),
    ],
  },
  {
    label: 'compaction',
    turn: 'compact',
    answers: [say('Summary: fixed sum, checked usages, counted lines.')],
  },
  { label: 'after compaction', turn: { text: 'What is left?' }, answers: [say('Nothing.')] },
];

/** The request as the provider reads it: blocks in its own order, cache markers left out. */
function blocksOf(request: RecordedRequest): { blocks: string[]; fixed: number; breakpoints: number[] } {
  const body = request.body;
  const plain = (value: unknown) =>
    JSON.stringify(value, (key, v) => (key === 'cache_control' ? undefined : v));
  if (request.wire === 'responses') {
    const fixed = [plain(body.instructions ?? ''), ...(body.tools ?? []).map(plain)];
    return { blocks: [...fixed, ...body.input.map(plain)], fixed: fixed.length, breakpoints: [] };
  }
  if (request.wire === 'chat') {
    const [first, ...rest] = body.messages as { role: string }[];
    const system = first?.role === 'system' ? [first] : [];
    const fixed = [...(body.tools ?? []), ...system].map(plain);
    const messages = system.length ? rest : body.messages;
    return { blocks: [...fixed, ...messages.map(plain)], fixed: fixed.length, breakpoints: [] };
  }
  const marked: { block: unknown; marked: boolean }[] = [
    ...(body.tools ?? []).map((t: { cache_control?: unknown }) => ({ block: t, marked: !!t.cache_control })),
    ...(body.system ?? []).map((b: { cache_control?: unknown }) => ({ block: b, marked: !!b.cache_control })),
  ];
  const fixed = marked.length;
  for (const message of body.messages as { role: string; content: { cache_control?: unknown }[] }[])
    message.content.forEach((block, i) =>
      marked.push({ block: { role: message.role, first: i === 0, block }, marked: !!block.cache_control }),
    );
  return {
    blocks: marked.map((m) => plain(m.block)),
    fixed,
    breakpoints: marked.flatMap((m, i) => (m.marked ? [i] : [])),
  };
}

const joined = (blocks: string[], count = blocks.length) => blocks.slice(0, count).join('\n');

function commonPrefix(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

interface Row {
  label: string;
  bytes: number;
  share: number;
  kept: number;
  fixedShared: boolean;
  readsBreakpoint: boolean | null;
  tokens: number;
  billed: number;
}

/** Prefix shares and billed estimates of the requests of one run, in order. */
function measure(requests: RecordedRequest[], labels: string[]): Row[] {
  const written = new Set<string>();
  const seen: string[] = [];
  return requests.map((request, n) => {
    const { blocks, fixed, breakpoints } = blocksOf(request);
    const text = joined(blocks);
    const previous = seen.at(-1) ?? '';
    const shared = commonPrefix(previous, text);
    const tokens = text.length / BYTES_PER_TOKEN;
    let cachedBytes = 0;
    let readsBreakpoint: boolean | null = null;
    let billed: number;
    if (request.wire === 'anthropic') {
      // A read: some block within the look-back of a breakpoint ends a prefix an earlier request wrote.
      for (const b of breakpoints)
        for (let i = b; i >= Math.max(0, b - LOOKBACK_BLOCKS); i--) {
          const prefix = joined(blocks, i + 1);
          if (written.has(prefix)) cachedBytes = Math.max(cachedBytes, prefix.length);
        }
      readsBreakpoint = cachedBytes > 0;
      const lastBreakpoint = breakpoints.length ? joined(blocks, breakpoints.at(-1)! + 1).length : 0;
      const writeBytes = Math.max(0, lastBreakpoint - cachedBytes);
      billed =
        (cachedBytes * 0.1 + writeBytes * 1.25 + (text.length - cachedBytes - writeBytes)) / BYTES_PER_TOKEN;
      for (const b of breakpoints) {
        const prefix = joined(blocks, b + 1);
        if (prefix.length / BYTES_PER_TOKEN >= MIN_CACHED_TOKENS) written.add(prefix);
      }
    } else {
      // OpenAI-style automatic caching: the longest prefix of an earlier request, from 1,024 tokens,
      // in steps of 128.
      const best = Math.max(0, ...seen.map((earlier) => commonPrefix(earlier, text)));
      const bestTokens = best / BYTES_PER_TOKEN;
      cachedBytes =
        bestTokens >= MIN_CACHED_TOKENS ? Math.floor(bestTokens / 128) * 128 * BYTES_PER_TOKEN : 0;
      billed = (cachedBytes * 0.1 + (text.length - cachedBytes)) / BYTES_PER_TOKEN;
    }
    seen.push(text);
    return {
      label: labels[n] ?? '',
      bytes: text.length,
      share: n === 0 ? 0 : shared / text.length,
      kept: n === 0 ? 0 : shared / previous.length,
      fixedShared: shared >= joined(blocks, fixed).length,
      readsBreakpoint,
      tokens,
      billed,
    };
  });
}

async function runWire(wire: WireFormat): Promise<Row[]> {
  const model: ModelServer = await startModelServer();
  const root = tempDir('threadline-bench-cache-');
  const paths: Paths = { home: join(root, 'home'), cwd: join(root, 'project') };
  try {
    mkdirSync(paths.home);
    mkdirSync(paths.cwd);
    writeFileSync(join(paths.home, 'config.toml'), scriptedConfig(model.baseUrl, { wire }));
    writeFileSync(join(paths.cwd, 'sum.js'), 'module.exports = function sum(a, b) {\n  return a - b;\n};\n');
    writeFileSync(join(paths.cwd, 'test.js'), "if (require('./sum')(2, 2) !== 4) throw new Error('sum');\n");
    writeFileSync(join(paths.cwd, 'AGENTS.md'), 'Run `node test.js` after every change.\n');
    for (let i = 0; i < 12; i++) writeFileSync(join(paths.cwd, `f${i}.txt`), 'a\nb\nc\n');
    execFileSync('git', ['init', '-q', paths.cwd]);
    const env = { ...agentEnv, THREADLINE_HOME: paths.home, THREADLINE_LOG: 'error' };
    // The resumed server lives a day later: libfaketime (Debian's faketime) moves its clock, so the
    // date in its context changes as it would for a thread resumed the next morning.
    const start = async (nextDay = false) => {
      const argv = [process.execPath, benchServer, 'app-server'];
      const command = nextDay && FAKETIME ? [FAKETIME, '-f', '+1d', ...argv] : argv;
      const server = rpcChild(command[0]!, command.slice(1), env);
      await server.call('initialize', { clientInfo: { name: 'bench', version: '0' }, capabilities: {} });
      server.child.stdin.write('{"method":"initialized"}\n');
      return server;
    };
    let server = await start();
    const started = await server.call('thread/start', { cwd: paths.cwd });
    const threadId = (started.result!.thread as { id: string }).id;
    const labels: string[] = [];
    for (const step of STEPS) {
      step.before?.(paths);
      if (step.turn === 'restart') {
        await server.stop();
        server = await start(true);
        const resumed = await server.call('thread/resume', { threadId });
        if (resumed.error) throw new Error(`resume: ${JSON.stringify(resumed.error)}`);
        continue;
      }
      if (step.client) {
        const [method, params] = step.client;
        const answer = await server.call(method, { cwds: [paths.cwd], ...params });
        if (answer.error) throw new Error(`${method}: ${JSON.stringify(answer.error)}`);
      }
      model.script(...step.answers);
      const done = server.notification('turn/completed');
      const answer =
        step.turn === 'compact'
          ? await server.call('thread/compact/start', { threadId })
          : await server.call('turn/start', {
              threadId,
              input: [{ type: 'text', text: step.turn.text }],
              ...step.turn.overrides,
            });
      if (answer.error) throw new Error(`${step.label}: ${JSON.stringify(answer.error)}`);
      const turn = (await done).turn as { status: string; error?: unknown };
      if (turn.status !== 'completed')
        throw new Error(`${step.label}: turn ${turn.status} ${JSON.stringify(turn.error)}`);
      step.answers.forEach((_, i) => labels.push(i === 0 ? step.label : ''));
    }
    await server.stop();
    return measure(model.requests, labels);
  } finally {
    await model.close();
    rmSync(root, { recursive: true, force: true });
  }
}

function report(wire: WireFormat, rows: Row[]): boolean {
  console.log(`\n${wire} (${benchServer})`);
  console.log('  #  step                              bytes  prefix%   kept%  reads-bp  tokens  billed');
  rows.forEach((row, i) => {
    const bp = row.readsBreakpoint === null ? '-' : row.readsBreakpoint ? 'yes' : 'no';
    console.log(
      `  ${String(i + 1).padStart(2)} ${row.label.padEnd(33)} ${String(row.bytes).padStart(6)} ${(row.share * 100).toFixed(1).padStart(7)} ${(row.kept * 100).toFixed(1).padStart(7)}  ${bp.padStart(8)} ${row.tokens.toFixed(0).padStart(7)} ${row.billed.toFixed(0).padStart(7)}`,
    );
  });
  const total = rows.reduce((sum, row) => sum + row.tokens, 0);
  const billed = rows.reduce((sum, row) => sum + row.billed, 0);
  // The request after the summary starts from the replaced history: it can share only what precedes
  // the history (instructions and tools).
  const afterCompaction = rows.findIndex((row) => row.label === 'after compaction');
  const later = rows.slice(1).filter((_, i) => i + 1 !== afterCompaction);
  const minKept = Math.min(...later.map((row) => row.kept));
  const minShare = Math.min(...later.map((row) => row.share));
  const checks = [
    [
      `every request after the first keeps >= 95% of the previous as its prefix (but the one after compaction): min ${(minKept * 100).toFixed(1)}% (prefix% min ${(minShare * 100).toFixed(1)}%)`,
      minKept >= 0.95,
    ],
    [
      'the request after compaction shares the instructions and tools',
      rows[afterCompaction]?.fixedShared === true,
    ],
    ...(wire === 'anthropic'
      ? [
          [
            'every request after the first reads a cache breakpoint',
            rows.slice(1).every((row) => row.readsBreakpoint),
          ],
        ]
      : []),
  ] as [string, boolean][];
  console.log(
    `  input tokens ${total.toFixed(0)}, billed estimate ${billed.toFixed(0)} (${((billed / total) * 100).toFixed(0)}%)`,
  );
  for (const [what, ok] of checks) console.log(`  ${ok ? 'PASS' : 'FAIL'} ${what}`);
  return checks.every(([, ok]) => ok);
}

async function main() {
  if (!FAKETIME) console.log('faketime is not installed: the resume happens on the same day');
  let ok = true;
  for (const wire of wires) ok = report(wire, await runWire(wire)) && ok;
  process.exitCode = ok ? 0 : 1;
}

void main();
