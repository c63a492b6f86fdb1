// The V8 flags the server changes at run time, and a way to load a Node module under Node's own.
//
// V8 accepts Node's code cache of its own modules only under the flags it was made with, Node's
// defaults: a Node module first loaded while any flag differs compiles from source, 3–8× slower
// (child_process 0.5 → 3.6 ms, readline 0.4 → 3.2 ms). So every flag the server changes is set here,
// and the Node modules the bundles load on first use (esbuild.mjs, lazyBuiltins) load with Node's
// values put back for that moment, whenever that is. The state lives on the process: the launcher
// and the core are separate bundles with a copy of this module each.
import { setFlagsFromString } from 'node:v8';

/** Node's value of each flag the server sets, with what setting it implied (V8 keeps that after). */
const NODE_VALUES = {
  'semi-space-growth-factor': ['--semi-space-growth-factor=2'],
  'optimize-for-size': ['--no-optimize-for-size', '--max-semi-space-size=0'],
  opt: ['--opt'],
  'expose-gc': ['--no-expose-gc'],
  'compact-on-every-full-gc': ['--no-compact-on-every-full-gc'],
} as const;

type Flag = keyof typeof NODE_VALUES;

/** Each flag the server set, as it last set it. */
const current: Map<Flag, string> = ((globalThis as Record<symbol, Map<Flag, string> | undefined>)[
  Symbol.for('threadline.v8Flags')
] ??= new Map());

/** Sets a V8 flag, one of NODE_VALUES's (`--name`, `--no-name` or `--name=value`). */
export function setV8Flag(flag: `--${string}`): void {
  const name = /^--(?:no-)?([a-z-]+?)(?:=.*)?$/.exec(flag)?.[1];
  if (name === undefined || !(name in NODE_VALUES)) throw new Error(`not a flag Threadline sets: ${flag}`);
  current.set(name as Flag, flag);
  setFlagsFromString(flag);
}

/** Runs `load` (a require of a Node module) under Node's flags, then puts the server's back. */
export function withNodeFlags<T>(load: () => T): T {
  const changed = [...current].filter(([name, flag]) => NODE_VALUES[name][0] !== flag);
  if (changed.length === 0) return load();
  for (const [name] of changed) for (const flag of NODE_VALUES[name]) setFlagsFromString(flag);
  try {
    return load();
  } finally {
    for (const [, flag] of changed) setFlagsFromString(flag);
  }
}
