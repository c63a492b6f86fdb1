// Helpers for command tests: temp git repositories, scripted exec_command calls, and answers to
// the server's approval requests.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CommandExecutionItem } from '../../server/protocol/commandExecution';
import type { ScriptedResponse } from '../fixtures/modelServer/scenario';
import type { Incoming, MessageLog } from './messageLog';
import { tempDir } from './serverProcess';

/** A fresh git repository with one committed file. */
export function gitRepo(): string {
  const dir = tempDir('threadline-repo-');
  execFileSync('git', ['init', '-q'], { cwd: dir });
  writeFileSync(join(dir, 'README.md'), '# demo\n');
  execFileSync('git', ['add', '.'], { cwd: dir });
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'init'], { cwd: dir });
  return dir;
}

/** A model turn that calls exec_command with these arguments, then one that answers `reply`. */
export function execCall(
  args: Record<string, unknown>,
  reply = 'Done.',
  callId = 'call_exec',
): ScriptedResponse[] {
  return [
    { output: [{ toolCall: { name: 'exec_command', arguments: JSON.stringify(args), callId } }] },
    { output: [{ text: reply }] },
  ];
}

export function commandItems(server: MessageLog, turnId: string): CommandExecutionItem[] {
  return server
    .notifications('item/completed')
    .map((m) => m.params as { turnId: string; item: CommandExecutionItem })
    .filter((p) => p.turnId === turnId && p.item.type === 'commandExecution')
    .map((p) => p.item);
}

/** The next server request with this method (already received or still to come). */
export function serverRequest(server: MessageLog, method: string, after = 0): Promise<Incoming> {
  let seen = 0;
  return server.next((m) => m.method === method && m.id !== undefined && seen++ >= after);
}

export function answer(server: MessageLog, request: Incoming, result: unknown): void {
  server.send({ id: request.id, result });
}
