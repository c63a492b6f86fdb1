// Command output as text to read: terminal colours, cursor moves and other control characters
// dropped (tabs and newlines kept; CR LF becomes LF). Shared by the conversation's command cards and
// the Markdown export. Pure.

export function plainText(text: string): string {
  return (
    text
      .replace(/\r\n?/g, '\n')
      // CSI and OSC sequences (colours, cursor moves, titles), then any other control character.
      // eslint-disable-next-line no-control-regex
      .replace(/\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[@-_]?/g, '')
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '')
  );
}
