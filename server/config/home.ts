// Where Threadline keeps its data: THREADLINE_HOME, else ~/.threadline.
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

export function resolveHome(env: NodeJS.ProcessEnv = process.env): string {
  const configured = env.THREADLINE_HOME?.trim();
  return configured ? resolve(configured) : join(homedir(), '.threadline');
}
