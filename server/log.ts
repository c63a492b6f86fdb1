// The server's logger: stderr only, because stdout carries protocol messages. The level comes from
// THREADLINE_LOG (error | warn | info | debug | trace; default info).
const levels = ['error', 'warn', 'info', 'debug', 'trace'] as const;
export type LogLevel = (typeof levels)[number];

export interface Logger {
  error(message: string): void;
  warn(message: string): void;
  info(message: string): void;
  debug(message: string): void;
  trace(message: string): void;
}

export function parseLogLevel(value: string | undefined): LogLevel {
  const wanted = value?.toLowerCase();
  return levels.find((level) => level === wanted) ?? 'info';
}

export function createLogger(
  level: LogLevel = parseLogLevel(process.env.THREADLINE_LOG),
  sink: (line: string) => void = stderrSink(),
): Logger {
  const threshold = levels.indexOf(level);
  const at = (name: LogLevel) =>
    levels.indexOf(name) <= threshold
      ? (message: string) => sink(`${new Date().toISOString()} ${name.toUpperCase()} ${message}\n`)
      : () => {};
  return { error: at('error'), warn: at('warn'), info: at('info'), debug: at('debug'), trace: at('trace') };
}

/** The last lines the log wrote, kept so a feedback bundle can include them. */
export class RecentLines {
  private readonly lines: string[] = [];

  constructor(private readonly max = 2000) {}

  /** A sink that keeps each line here and passes it on. */
  tee(next: (line: string) => void): (line: string) => void {
    return (line) => {
      this.lines.push(line);
      if (this.lines.length > this.max) this.lines.splice(0, this.lines.length - this.max);
      next(line);
    };
  }

  text(): string {
    return this.lines.join('');
  }
}

/**
 * Writes to stderr until it breaks. A stderr whose reader is gone (the editor that started us died)
 * fails every write with EPIPE; unhandled, each failure was an uncaught exception, logged to stderr,
 * failing again: orphaned servers spun at 20% CPU for hours.
 */
export function stderrSink(): (line: string) => void {
  let broken = false;
  process.stderr.on('error', () => (broken = true));
  return (line) => {
    if (!broken) process.stderr.write(line);
  };
}
