import { strict as assert } from 'node:assert';
import { parseArgs, usage } from '../../server/cli/args';

describe('threadline command line', () => {
  it('shows help with no arguments, -h or --help', () => {
    assert.deepEqual(parseArgs([]), { kind: 'help' });
    assert.deepEqual(parseArgs(['-h']), { kind: 'help' });
    assert.deepEqual(parseArgs(['app-server', '--help']), { kind: 'help' });
  });

  it('prints the version for -v and --version', () => {
    assert.deepEqual(parseArgs(['--version']), { kind: 'version' });
    assert.deepEqual(parseArgs(['-v']), { kind: 'version' });
  });

  it('defaults app-server to stdio and accepts --listen in both spellings', () => {
    assert.deepEqual(parseArgs(['app-server']), { kind: 'app-server', listen: 'stdio://' });
    assert.deepEqual(parseArgs(['app-server', '--listen', 'ws://127.0.0.1:0']), {
      kind: 'app-server',
      listen: 'ws://127.0.0.1:0',
    });
    assert.deepEqual(parseArgs(['app-server', '--listen=stdio://']), {
      kind: 'app-server',
      listen: 'stdio://',
    });
  });

  it('rejects unknown commands and options with a message', () => {
    assert.deepEqual(parseArgs(['serve']), { kind: 'error', message: "unknown command 'serve'" });
    assert.deepEqual(parseArgs(['app-server', '--bogus']), {
      kind: 'error',
      message: "unknown option '--bogus'",
    });
    assert.deepEqual(parseArgs(['app-server', '--listen']), {
      kind: 'error',
      message: '--listen needs a URL',
    });
  });

  it('documents every command in the usage text', () => {
    assert.match(usage(), /app-server/);
    assert.match(usage(), /--listen/);
  });
});
