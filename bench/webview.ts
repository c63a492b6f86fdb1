// The conversation webview's bundle in headless Chromium, on a plain page at 127.0.0.1 with a small
// stand-in for acquireVsCodeApi: the bundle's load (parse + run) time, a 2,000-item thread snapshot until
// the first frame with its last item in the DOM, then 5,000 streamed deltas while a PerformanceObserver
// records long tasks. Targets: snapshot ≤ 150 ms, no task over 50 ms. Each run is a fresh page load;
// WEBVIEW_BENCH_RUNS (default 5) runs, then the medians, with the machine's load average beside them.
// Build first: node esbuild.mjs --production; then: npx tsx bench/webview.ts
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { ThreadItem } from '../server/protocol/items';
import type { Turn } from '../server/protocol/thread';
import type { CDPSession } from 'playwright-core';
import { Browser } from '../test/support/harness/browser';
import type { HostMessage, ProtocolNotification, ThreadSnapshot } from '../webview/messages';

const dist = process.env.WEBVIEW_BENCH_DIST ?? join(__dirname, '..', 'dist');
const threadId = 'thr_bench';
const turns = 250; // × 8 items = 2,000
const deltas = 5_000;
const runs = Number(process.env.WEBVIEW_BENCH_RUNS ?? 5);

const page = `<!DOCTYPE html><html><head><meta charset="utf-8">
<link rel="stylesheet" href="/webview.css">
<script>
  // tsx compiles this file keeping function names: the functions handed to page.evaluate call __name.
  window.__name = (f) => f;
  window.posted = [];
  window.acquireVsCodeApi = () => ({ postMessage: (m) => window.posted.push(m), getState: () => undefined, setState() {} });
  window.longTasks = [];
  new PerformanceObserver((list) => { for (const e of list.getEntries()) window.longTasks.push(e.duration); })
    .observe({ type: 'longtask', buffered: true });
  window.addEventListener('message', (e) => { if (e.data.type === 'snapshot') performance.mark('snapshot-received'); });
  // The bundle is fetched first, so its parse (compiling the script) and its run (defining the
  // elements, mounting React) are timed apart from the download.
  const source = fetch('/webview.js').then((r) => r.text());
  addEventListener('DOMContentLoaded', () => source.then((source) => {
    performance.mark('parse-start');
    const bundle = new Function(source);
    performance.mark('parse-end');
    bundle();
    performance.mark('run-end');
  }));
</script>
</head><body style="height: 800px"><div id="root" style="height: 100%"></div>
</body></html>`;

function serve(): Promise<Server> {
  const types: Record<string, string> = { js: 'text/javascript', css: 'text/css', ttf: 'font/ttf' };
  const server = createServer((request, response) => {
    const file = new URL(request.url!, 'http://x').pathname.slice(1).replace(/[^a-z.]/g, '');
    let body: Buffer | string = page;
    try {
      if (file) body = readFileSync(join(dist, file));
    } catch {
      return response.writeHead(404).end();
    }
    response.writeHead(200, { 'content-type': types[file.split('.').pop()!] ?? 'text/html' }).end(body);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const markdown = (i: number) =>
  `Turn ${i}: I changed **two files** and ran the tests.\n\n- one\n- two\n\n\`\`\`ts\nexport function f${i}(x: number): number {\n  return x * ${i};\n}\n\`\`\`\n`;

function items(t: number): ThreadItem[] {
  const id = (k: string) => `${k}_${t}`;
  const output = Array.from({ length: 40 }, (_, i) => `  ✔ test ${i} of turn ${t}`).join('\n');
  return [
    { type: 'userMessage', id: id('u'), content: [{ type: 'text', text: `Please do step ${t}` }] },
    { type: 'reasoning', id: id('r'), summary: [`**Planning** step ${t}`], content: [] },
    { type: 'agentMessage', id: id('a1'), text: `Looking at step ${t}.` },
    {
      type: 'commandExecution',
      id: id('c'),
      command: 'npm test',
      cwd: '/w',
      commandActions: [],
      status: 'completed',
      exitCode: 0,
      durationMs: 1234,
      aggregatedOutput: output,
    },
    {
      type: 'fileChange',
      id: id('f'),
      status: 'completed',
      changes: [
        {
          path: `src/f${t}.ts`,
          kind: { type: 'update', move_path: null },
          diff: `@@ -1,2 +1,2 @@\n-old ${t}\n+new ${t}\n ctx`,
        },
      ],
    },
    { type: 'plan', id: id('p'), text: `1. step ${t}` },
    { type: 'contextCompaction', id: id('cc') },
    { type: 'agentMessage', id: id('a2'), text: markdown(t) },
  ] as unknown as ThreadItem[];
}

function snapshot(): ThreadSnapshot {
  const all: Turn[] = Array.from({ length: turns }, (_, t) => ({
    id: `turn_${t}`,
    items: items(t),
    status: 'completed',
    error: null,
    startedAt: 1_700_000_000 + t,
    completedAt: 1_700_000_001 + t,
    durationMs: 900,
  }));
  return {
    thread: {
      id: threadId,
      sessionId: threadId,
      preview: 'bench',
      name: 'Bench',
      cwd: '/w',
      modelProvider: 'openai',
      model: 'm',
      createdAt: 1_700_000_000,
      updatedAt: 1_700_000_000,
      status: { type: 'idle' },
      ephemeral: false,
      source: 'vscode',
      cliVersion: '0',
      projectId: null,
      forkedFromId: null,
      gitInfo: null,
      path: null,
    },
    turns: all,
    hasOlderTurns: false,
    settings: {
      model: 'm',
      modelProvider: 'openai',
      reasoningEffort: null,
      approvalPolicy: 'on-request',
      sandbox: 'workspace-write',
    },
  };
}

function streamMessages(): HostMessage[] {
  const turn: Turn = {
    id: 'turn_live',
    items: [],
    status: 'inProgress',
    error: null,
    startedAt: 1_700_001_000,
    completedAt: null,
    durationMs: null,
  };
  const notifications: ProtocolNotification[] = [
    { method: 'turn/started', params: { threadId, turn } },
    {
      method: 'item/started',
      params: {
        threadId,
        turnId: turn.id,
        item: { type: 'agentMessage', id: 'live', text: '' },
        startedAtMs: 0,
      },
    },
    ...Array.from({ length: deltas }, (_, i) => ({
      method: 'item/agentMessage/delta' as const,
      params: {
        threadId,
        turnId: turn.id,
        itemId: 'live',
        delta: i % 60 === 59 ? '\n\n' : i % 200 === 100 ? '\n```ts\nconst x = 1;\n```\n' : `word${i} `,
      },
    })),
  ];
  return notifications.map((notification, i) => ({ type: 'delta', threadId, seq: i + 1, notification }));
}

interface Run {
  parse: number;
  run: number;
  snapshot: number;
  delivery: number;
  frames: number;
  inDom: number;
  streamMs: number;
  longTasks: number[];
  textLength: number;
}

async function measure(browser: Browser, url: string, profile: string | undefined): Promise<Run> {
  await browser.page.goto(url);
  await browser.page.waitForFunction(() => (window as unknown as { posted: unknown[] }).posted.length > 0);
  const bundle = await browser.page.evaluate(() => {
    const [start, parsed, ran] = ['parse-start', 'parse-end', 'run-end'].map(
      (m) => performance.getEntriesByName(m)[0].startTime,
    );
    return { parse: parsed - start, run: ran - parsed };
  });

  // WEBVIEW_BENCH_PROFILE=snapshot|stream prints where that phase's time went (build unminified for names).
  const cdp = profile ? await browser.page.context().newCDPSession(browser.page) : undefined;
  if (cdp) await cdp.send('Profiler.enable').then(() => cdp.send('Profiler.start'));
  const snapshotMessage: HostMessage = {
    type: 'snapshot',
    seq: 0,
    snapshot: snapshot(),
    context: { kind: 'panel', restricted: false },
  };
  const lastId = `a2_${turns - 1}`;
  const firstPaint = await browser.page.evaluate(
    ({ message, lastId }) =>
      new Promise<{ total: number; delivery: number; frames: number }>((resolve) => {
        let frames = 0;
        performance.mark('snapshot-posted');
        window.postMessage(message, '*');
        const check = () => {
          if (document.querySelector(`[data-item-id="${lastId}"]`)) {
            const [posted, received] = ['snapshot-posted', 'snapshot-received'].map(
              (m) => performance.getEntriesByName(m)[0].startTime,
            );
            resolve({ total: performance.now() - posted, delivery: received - posted, frames });
          } else {
            frames++;
            requestAnimationFrame(check);
          }
        };
        requestAnimationFrame(check);
      }),
    { message: snapshotMessage, lastId },
  );
  if (cdp && profile === 'snapshot') await printProfile(cdp);
  const inDom = await browser.page.evaluate(() => document.querySelectorAll('[data-item-id]').length);

  await browser.page.evaluate(() => ((window as unknown as { longTasks: number[] }).longTasks.length = 0));
  // As a fast model streams: 50 deltas every 10 ms (5,000 in about a second).
  const streamed = await browser.page.evaluate(
    (messages) =>
      new Promise<{ ms: number; longTasks: number[]; textLength: number }>((resolve) => {
        const start = performance.now();
        let next = 0;
        const burst = () => {
          for (const end = Math.min(next + 50, messages.length); next < end; next++)
            window.postMessage(messages[next], '*');
          if (next < messages.length) setTimeout(burst, 10);
          else
            setTimeout(() => {
              const live = document.querySelector('[data-item-id="live"]');
              resolve({
                ms: performance.now() - start,
                longTasks: (window as unknown as { longTasks: number[] }).longTasks,
                textLength: live?.textContent?.length ?? 0,
              });
            }, 300);
        };
        burst();
      }),
    streamMessages(),
  );
  if (cdp && profile === 'stream') await printProfile(cdp);
  await cdp?.detach();
  return {
    ...bundle,
    snapshot: firstPaint.total,
    delivery: firstPaint.delivery,
    frames: firstPaint.frames,
    inDom,
    streamMs: streamed.ms,
    longTasks: streamed.longTasks,
    textLength: streamed.textLength,
  };
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

/** The functions that took the most time, by their own time and with what they called. */
async function printProfile(cdp: CDPSession): Promise<void> {
  const { profile } = (await cdp.send('Profiler.stop')) as unknown as {
    profile: { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };
  };
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000));
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const total = (id: number): number =>
    (self.get(id) ?? 0) + (nodes.get(id)!.children ?? []).reduce((sum, child) => sum + total(child), 0);
  const selfByName = new Map<string, number>();
  const totalByName = new Map<string, number>();
  for (const node of profile.nodes) {
    const name = `${node.callFrame.functionName || '(anon)'} ${node.callFrame.url.split('/').pop()}:${node.callFrame.lineNumber}`;
    selfByName.set(name, (selfByName.get(name) ?? 0) + (self.get(node.id) ?? 0));
    totalByName.set(name, (totalByName.get(name) ?? 0) + total(node.id));
  }
  for (const [title, byName] of [
    ['self', selfByName],
    ['total', totalByName],
  ] as const) {
    console.log(`-- ${title} time`);
    for (const [name, ms] of [...byName].sort((a, b) => b[1] - a[1]).slice(0, 30))
      console.log(`${ms.toFixed(0).padStart(7)} ms ${name}`);
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function main(): Promise<void> {
  const server = await serve();
  const browser = await Browser.launch();
  const load = () =>
    loadavg()
      .map((l) => l.toFixed(2))
      .join(' ');
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    console.log(
      `webview bundle: ${(readFileSync(join(dist, 'webview.js')).length / 1024).toFixed(0)} KiB; load average before: ${load()}`,
    );
    const results: Run[] = [];
    for (let i = 0; i < runs; i++) {
      const r = await measure(browser, url, process.env.WEBVIEW_BENCH_PROFILE);
      results.push(r);
      const longest = Math.max(0, ...r.longTasks);
      console.log(
        `run ${i + 1}: bundle parse ${r.parse.toFixed(1)} ms, run ${r.run.toFixed(1)} ms; snapshot → last item in the DOM ${r.snapshot.toFixed(1)} ms (postMessage delivery ${r.delivery.toFixed(1)} ms, ${r.frames} frames, ${r.inDom} item elements); ${deltas} deltas in ${r.streamMs.toFixed(0)} ms: ${r.longTasks.length} long tasks, longest ${longest.toFixed(0)} ms; final text ${r.textLength} chars`,
      );
    }
    const longest = results.map((r) => Math.max(0, ...r.longTasks));
    console.log(`load average after: ${load()} (${runs} runs; medians below)`);
    console.log(
      `bundle parse: ${median(results.map((r) => r.parse)).toFixed(1)} ms; run (define elements, mount): ${median(results.map((r) => r.run)).toFixed(1)} ms`,
    );
    console.log(
      `2,000-item snapshot → last item in the DOM: ${median(results.map((r) => r.snapshot)).toFixed(1)} ms (target ≤ 150 ms; every run: ${results.map((r) => r.snapshot.toFixed(0)).join(', ')})`,
    );
    console.log(
      `${deltas} deltas: longest task ${median(longest).toFixed(0)} ms (target: none over 50 ms; every run: ${longest.map((l) => l.toFixed(0)).join(', ')})`,
    );
  } finally {
    await browser.close();
    server.close();
  }
}

void main();
