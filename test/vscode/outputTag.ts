// The workbench forwards its own log lines through the same channel as the extension host's console, so
// the in-editor entry tags mocha's report and the launcher shows only tagged lines (the rest is kept for a
// failure report). The extension host locks `console.log` against reassignment, hence mocha's own hook.
import type Mocha from 'mocha';

export const outputTag = '\u2063threadline-test\u2063';

export function tagReporterOutput(mocha: typeof Mocha): void {
  const log = console.log.bind(console);
  mocha.reporters.Base.consoleLog = (...data: unknown[]) =>
    typeof data[0] === 'string' ? log(outputTag + data[0], ...data.slice(1)) : log(outputTag, ...data);
}
