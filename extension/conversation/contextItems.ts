// The input items for context only the editor has (problems, a terminal's last command, the live text
// of an unsaved selection): each a text item holding one labelled, fenced, bounded block, with a
// text element over the whole text so a view can show it as its short `@` name. Pure: no vscode, so
// the server tests build exactly what the extension sends.
import { contextBlock, headWithin, oneLine, sizeText, tailWithin } from '../../server/agent/contextBlock';
import type { UserInput } from '../../server/protocol/userInput';

export const MAX_TERMINAL_BYTES = 50 * 1024;
export const MAX_PROBLEMS = 200;
export const MAX_PROBLEMS_BYTES = 50 * 1024;
export const MAX_LIVE_TEXT_BYTES = 100 * 1024;

/** A text item the webview shows as `placeholder` (the spec's text_elements). */
function placeheld(text: string, placeholder: string): UserInput {
  return {
    type: 'text',
    text,
    text_elements: [{ byteRange: { start: 0, end: Buffer.byteLength(text, 'utf8') }, placeholder }],
  };
}

/** What the terminal integration could tell about the active terminal's last command. */
export type TerminalCapture =
  | { kind: 'noTerminal' }
  /** The terminal exists but VS Code cannot see its commands (no shell integration, or an older VS Code). */
  | { kind: 'noShellIntegration'; terminal: string }
  /** Shell integration is active, but no command has finished since Threadline started listening. */
  | { kind: 'noCommand'; terminal: string }
  | {
      kind: 'command';
      terminal: string;
      commandLine: string;
      cwd?: string;
      /** Undefined while it runs, or when the shell did not report it. */
      exitCode?: number;
      running?: boolean;
      /** Raw, as the terminal received it (escape sequences included). */
      output: string;
      /** Output was dropped at its start while it was recorded. */
      dropped?: boolean;
    };

// VS Code hands an extension a command's output only from when it starts reading it, which is
// when it hears the command started: a command that prints at once may be done by then.
const NO_OUTPUT =
  '(no output was captured: the command printed nothing, or printed it before VS Code passed it on)';

export function terminalItem(capture: TerminalCapture): UserInput {
  const placeholder = '@terminal';
  if (capture.kind !== 'command') {
    const note =
      capture.kind === 'noTerminal'
        ? 'There is no open terminal in the editor, so there is no last command output to attach.'
        : capture.kind === 'noShellIntegration'
          ? `The terminal "${oneLine(capture.terminal)}" has no shell integration, so the editor cannot read its last command or output. Ask the user to paste the output, or to enable shell integration (terminal.integrated.shellIntegration.enabled) and run the command again.`
          : `The terminal "${oneLine(capture.terminal)}" has not finished a command since Threadline started listening to it, so there is no last command output to attach.`;
    return placeheld(`[Terminal output was asked for: ${note}]`, placeholder);
  }
  const { text, cut } = tailWithin(plainTerminalText(capture.output), MAX_TERMINAL_BYTES);
  const status = capture.running
    ? 'still running'
    : capture.exitCode === undefined
      ? 'no exit code reported'
      : `exit code ${capture.exitCode}`;
  const where = capture.cwd ? ` in ${capture.cwd}` : '';
  const label = `The output of the command "${capture.commandLine}"${where} (${status}), the last command in the terminal "${capture.terminal}"`;
  const truncated =
    cut || capture.dropped
      ? `only the last ${sizeText(MAX_TERMINAL_BYTES)} of the output are shown`
      : undefined;
  return placeheld(contextBlock({ label, body: text || NO_OUTPUT, truncated }), placeholder);
}

/**
 * Terminal bytes as the text a person saw: escape sequences (colours, cursor moves, shell
 * integration's own marks) removed, and a line rewritten with `\r` (a progress bar) kept as it ended.
 */
export function plainTerminalText(raw: string): string {
  const stripped = raw.replace(
    // eslint-disable-next-line no-control-regex
    /\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b\[[0-?]*[ -/]*[@-~]|\u001b[@-Z\\-_]/g,
    '',
  );
  return stripped
    .split('\n')
    .map((line) => {
      const parts = line.replace(/\r+$/, '').split('\r');
      return parts[parts.length - 1]!;
    })
    .join('\n');
}

export interface Problem {
  /** Workspace-relative where possible. */
  path: string;
  /** 1-based. */
  line: number;
  column: number;
  severity: 'error' | 'warning' | 'info' | 'hint';
  message: string;
  source?: string;
  code?: string;
}

const severityOrder = { error: 0, warning: 1, info: 2, hint: 3 };

/** The problems of one file (`scope`) or of the workspace, errors first, bounded in count and size. */
export function problemsItem(scope: string | undefined, problems: Problem[]): UserInput {
  const placeholder = scope ? `@problems:${scope}` : '@problems';
  const where = scope ? `the file ${scope}` : 'the workspace';
  const sorted = [...problems].sort(
    (a, b) =>
      severityOrder[a.severity] - severityOrder[b.severity] ||
      a.path.localeCompare(b.path) ||
      a.line - b.line ||
      a.column - b.column,
  );
  const lines = sorted.slice(0, MAX_PROBLEMS).map((p) => {
    const origin = [p.source, p.code].filter(Boolean).join(' ');
    return `${p.path}:${p.line}:${p.column} ${p.severity}${origin ? ` [${origin}]` : ''}: ${oneLine(p.message)}`;
  });
  const { text, cut } = headWithin(lines.join('\n'), MAX_PROBLEMS_BYTES);
  const shown = cut ? text.split('\n').filter(Boolean).length : lines.length;
  const truncated =
    shown < problems.length
      ? `only ${shown} of ${problems.length} problems are listed, errors first`
      : undefined;
  const label = `The problems (diagnostics) the editor reports in ${where}: ${problems.length}`;
  return placeheld(contextBlock({ label, body: text || '(none)', truncated }), placeholder);
}

/** Lines of a file as the editor holds them (unsaved changes included), bounded. */
export function liveTextItem(
  mention: { path: string; startLine?: number; endLine?: number; language?: string },
  text: string,
  placeholder: string,
): UserInput {
  const { text: body, cut } = headWithin(text, MAX_LIVE_TEXT_BYTES);
  const range = mention.startLine ? `Lines ${mention.startLine}-${mention.endLine} of ` : 'The file ';
  const label = `${range}${mention.path}, as open in the editor with unsaved changes`;
  const truncated = cut
    ? `only the first ${sizeText(MAX_LIVE_TEXT_BYTES)} of ${sizeText(Buffer.byteLength(text, 'utf8'))} are shown`
    : undefined;
  return placeheld(contextBlock({ label, body, language: mention.language, truncated }), placeholder);
}
