// The "Threadline" log: the client's own messages, the server's stderr and, when
// `threadline.server.trace` asks for it, every JSON-RPC message with its secrets redacted.
import type * as vscode from 'vscode';
import type { Message } from 'vscode-jsonrpc';
import type { ClientLog, TraceDirection } from '../client/serverClient';
import { redactSecrets, redactText } from '../client/redact';

export type TraceLevel = 'off' | 'messages' | 'verbose';

export function clientLog(channel: vscode.LogOutputChannel): ClientLog {
  // While the editor shuts down the channel closes before the server's last stderr lines arrive; a
  // log line is not worth an exception in a stream handler.
  const write = (level: 'info' | 'warn' | 'error', text: string) => {
    try {
      channel[level](redactText(text));
    } catch {
      // the channel is gone
    }
  };
  return {
    info: (message) => write('info', message),
    warn: (message) => write('warn', message),
    error: (message) => write('error', message),
    server: (line) => write('info', `[server] ${line}`),
  };
}

/** `messages`: method and id only; `verbose`: the whole message. */
export function messageTracer(
  channel: vscode.LogOutputChannel,
  level: () => TraceLevel,
): (direction: TraceDirection, message: Message) => void {
  return (direction, message) => {
    const current = level();
    if (current === 'off') return;
    const arrow = direction === 'send' ? '→' : '←';
    channel.info(
      `${arrow} ${current === 'verbose' ? JSON.stringify(redactSecrets(message)) : summary(message)}`,
    );
  };
}

function summary(message: Message): string {
  const m = message as { id?: unknown; method?: unknown; error?: { code?: unknown } };
  const id = m.id === undefined ? '' : ` #${String(m.id)}`;
  if (typeof m.method === 'string') return `${m.method}${id}`;
  return m.error ? `error${id} (${String(m.error.code)})` : `result${id}`;
}
