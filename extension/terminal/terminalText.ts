// Output as a terminal wants it: a Pseudoterminal writes straight to the emulator, which moves down a
// line on "\n" without going back to the start of it. Commands run over pipes print bare "\n".
// Pure: no editor.

/** Bare "\n" becomes "\r\n"; a "\r\n" already there, and colours and other escapes, pass as they are. */
export function toTerminal(text: string, previous = ''): string {
  // A "\r" that ended the previous piece pairs with a "\n" starting this one.
  const startsAfterCr = previous.endsWith('\r');
  return text.replace(/\r?\n/g, (match, offset: number) =>
    match === '\n' && offset === 0 && startsAfterCr ? '\n' : '\r\n',
  );
}

/** What a typed key sends to a process reading a pipe, with no terminal to echo or edit the line. */
export type LineInput = { echo: string; send?: string; interrupt?: true; endOfInput?: true };

/**
 * A line editor for a process without a terminal: typed characters are echoed and kept until Enter
 * sends the line; Backspace takes one back; Ctrl+C interrupts; Ctrl+D on an empty line ends the input.
 * Pasted text may hold several lines: each is sent as it ends.
 */
export class LineEditor {
  private line = '';

  take(data: string): LineInput[] {
    const out: LineInput[] = [];
    // Arrow keys and the like move nothing here: there is no terminal on the other side to edit the line.
    // eslint-disable-next-line no-control-regex
    for (const ch of data.replace(/\u001b(\[[0-9;?]*[ -/]*[@-~]|O.|.)?/g, '')) {
      if (ch === '\r' || ch === '\n') {
        out.push({ echo: '\r\n', send: `${this.line}\n` });
        this.line = '';
      } else if (ch === '\u007f' || ch === '\b') {
        if (!this.line) continue;
        this.line = [...this.line].slice(0, -1).join('');
        out.push({ echo: '\b \b' });
      } else if (ch === '\u0003') {
        this.line = '';
        out.push({ echo: '^C\r\n', interrupt: true });
      } else if (ch === '\u0004') {
        if (this.line) continue;
        out.push({ echo: '^D\r\n', endOfInput: true });
      } else if (ch >= ' ' || ch === '\t') {
        this.line += ch;
        out.push({ echo: ch });
      }
    }
    return out;
  }
}
