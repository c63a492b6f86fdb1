// The commandExecution item of one command: started, its output streamed as deltas while it is
// open, then completed once with how the command ended.
import { randomUUID } from 'node:crypto';
import type { TurnEmitter } from '../agent/turnEmitter';
import type {
  CommandAction,
  CommandExecutionItem,
  CommandExecutionStatus,
} from '../protocol/commandExecution';

/**
 * How a command ended: the item's fields other than what it started with, so a renamed field is a
 * compile error at every place that completes an item.
 */
export type CommandEnd = Partial<
  Omit<CommandExecutionItem, 'type' | 'id' | 'command' | 'cwd' | 'commandActions' | 'source' | 'status'>
> & { status: Exclude<CommandExecutionStatus, 'inProgress'> };

export class CommandItem {
  readonly item: CommandExecutionItem;
  private open = false;

  constructor(
    private readonly emit: TurnEmitter,
    fields: {
      command: string;
      cwd: string;
      commandActions: CommandAction[];
      source: NonNullable<CommandExecutionItem['source']>;
      processId?: string | null;
    },
  ) {
    this.item = {
      type: 'commandExecution',
      id: randomUUID(),
      command: fields.command,
      cwd: fields.cwd,
      commandActions: fields.commandActions,
      status: 'inProgress',
      source: fields.source,
      processId: fields.processId ?? null,
      aggregatedOutput: null,
      exitCode: null,
      durationMs: null,
    };
  }

  get id(): string {
    return this.item.id;
  }

  start(): void {
    this.open = true;
    this.emit.itemStarted(this.item);
  }

  delta(text: string): void {
    if (this.open)
      this.emit.itemDelta('item/commandExecution/outputDelta', { itemId: this.item.id, delta: text });
  }

  async complete(end: CommandEnd): Promise<void> {
    if (!this.open) return;
    this.open = false;
    await this.emit.itemCompleted({
      ...this.item,
      status: end.status,
      exitCode: end.exitCode ?? null,
      durationMs: end.durationMs ?? null,
      aggregatedOutput: end.aggregatedOutput ?? null,
      processId: end.processId ?? this.item.processId ?? null,
    });
  }
}
