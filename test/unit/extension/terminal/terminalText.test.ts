import { strict as assert } from 'node:assert';
import { LineEditor, toTerminal } from '../../../../extension/terminal/terminalText';

describe('output and input of a command without a terminal', () => {
  it('turns bare newlines into CR LF, keeping CR LF and colours as they are', () => {
    assert.equal(
      toTerminal('\u001b[31mred\u001b[0m\nnext\r\nlast'),
      '\u001b[31mred\u001b[0m\r\nnext\r\nlast',
    );
    // A CR LF split between two pieces stays one line break.
    assert.equal(toTerminal('\nmore', 'first\r'), '\nmore');
    assert.equal(toTerminal('\nmore', 'first'), '\r\nmore');
  });

  it('echoes typed characters and sends the line on Enter, with Backspace, Ctrl+C and Ctrl+D', () => {
    const editor = new LineEditor();
    assert.deepEqual(editor.take('ab'), [{ echo: 'a' }, { echo: 'b' }]);
    assert.deepEqual(editor.take('\u007f'), [{ echo: '\b \b' }]);
    assert.deepEqual(editor.take('c\r'), [{ echo: 'c' }, { echo: '\r\n', send: 'ac\n' }]);
    assert.deepEqual(editor.take('\u007f'), [], 'nothing to take back');
    assert.deepEqual(editor.take('x\u0004'), [{ echo: 'x' }], 'Ctrl+D ends the input only on an empty line');
    assert.deepEqual(editor.take('\u0003'), [{ echo: '^C\r\n', interrupt: true }]);
    assert.deepEqual(editor.take('\u0004'), [{ echo: '^D\r\n', endOfInput: true }]);
  });

  it('sends each line of pasted text and drops arrow keys', () => {
    const editor = new LineEditor();
    const out = editor.take('one\ntwo\u001b[A\u001b[D\n');
    assert.deepEqual(
      out.filter((o) => o.send).map((o) => o.send),
      ['one\n', 'two\n'],
    );
  });
});
