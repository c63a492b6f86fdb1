import { strict as assert } from 'node:assert';
import { parseArgs, usage } from '../../../../server/cli/args';

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
    assert.deepEqual(parseArgs(['app-server']), {
      kind: 'app-server',
      listen: 'stdio://',
      allowRemote: false,
      allowOrigins: [],
      authTokenFile: null,
      configOverrides: [],
    });
    assert.deepEqual(parseArgs(['app-server', '--listen', 'ws://127.0.0.1:0', '--allow-remote']), {
      kind: 'app-server',
      listen: 'ws://127.0.0.1:0',
      allowRemote: true,
      allowOrigins: [],
      authTokenFile: null,
      configOverrides: [],
    });
    assert.deepEqual(parseArgs(['app-server', '--listen=stdio://']), {
      kind: 'app-server',
      listen: 'stdio://',
      allowRemote: false,
      allowOrigins: [],
      authTokenFile: null,
      configOverrides: [],
    });
  });

  it('collects allowed origins and the token file', () => {
    const args = ['--allow-origin', 'https://a.example', '--allow-origin=https://b.example'];
    assert.deepEqual(parseArgs(['app-server', ...args, '--auth-token-file=/run/t']), {
      kind: 'app-server',
      listen: 'stdio://',
      allowRemote: false,
      allowOrigins: ['https://a.example', 'https://b.example'],
      authTokenFile: '/run/t',
      configOverrides: [],
    });
    assert.deepEqual(parseArgs(['app-server', '--auth-token-file']), {
      kind: 'error',
      message: '--auth-token-file needs a value',
    });
  });

  it('collects -c and --config overrides in order', () => {
    const parsed = parseArgs(['app-server', '-c', 'model=o3', '--config=features.view_image=false']);
    assert.deepEqual(parsed.kind === 'app-server' && parsed.configOverrides, [
      'model=o3',
      'features.view_image=false',
    ]);
    assert.deepEqual(parseArgs(['app-server', '-c']), { kind: 'error', message: '-c needs a value' });
  });

  it('parses the schema generators', () => {
    assert.deepEqual(parseArgs(['app-server', 'generate-json-schema', '--out', '/tmp/x']), {
      kind: 'generate',
      format: 'json-schema',
      out: '/tmp/x',
      experimental: false,
    });
    assert.deepEqual(parseArgs(['app-server', 'generate-ts', '--out=/tmp/y', '--experimental']), {
      kind: 'generate',
      format: 'ts',
      out: '/tmp/y',
      experimental: true,
    });
    assert.deepEqual(parseArgs(['app-server', 'generate-ts']), {
      kind: 'error',
      message: 'generate-ts needs --out DIR',
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
      message: '--listen needs a value',
    });
    assert.equal(parseArgs(['app-server', '--experimental']).kind, 'error');
  });

  it('documents every command and option in the usage text', () => {
    for (const word of [
      'app-server',
      'generate-json-schema',
      'generate-ts',
      '--listen',
      '--allow-remote',
      '--allow-origin',
      '--auth-token-file',
      'THREADLINE_HOME',
    ]) {
      assert.ok(usage().includes(word), word);
    }
  });
});
