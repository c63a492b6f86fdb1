// The commandExecution item of one command: started, its output streamed as deltas while it is
// open (up to the streaming budget, then one notice), then completed once with how the command ended.
import { randomUUID } from 'node:crypto';
import type { TurnEmitter } from '../agent/turnEmitter';
import { STREAMED_OUTPUT_BUDGET_BYTES } from '../exec/streamCapture';
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

const STOPPED_STREAMING =
  `\n[Threadline stopped showing this command's output live after ${STREAMED_OUTPUT_BUDGET_BYTES / 1024 / 1024} MiB; ` +
  'the command goes on. When it ends, its output here is replaced by its beginning and its end, ' +
  'with a note of how much was cut between them.]\n';

export class CommandItem {
  readonly item: CommandExecutionItem;
  private open = false;
  private streamedBytes = 0;
  private streamingStopped = false;

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
    if (!this.open || this.streamingStopped) return;
    const bytes = Buffer.byteLength(text);
    // A piece goes whole or not at all, so no character is split at the budget.
    if (this.streamedBytes + bytes <= STREAMED_OUTPUT_BUDGET_BYTES) {
      this.streamedBytes += bytes;
      this.emit.itemDelta('item/commandExecution/outputDelta', { itemId: this.item.id, delta: text });
      return;
    }
    this.streamingStopped = true;
    this.emit.itemDelta('item/commandExecution/outputDelta', {
      itemId: this.item.id,
      delta: STOPPED_STREAMING,
    });
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
