// auth.json: owner-only, replaced whole (never half-written), tolerant of a damaged file without
// losing it, and never quoting what it holds.
import { strict as assert } from 'node:assert';
import { chmodSync, existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AuthStore } from '../../../../server/account/authStore';
import { createLogger } from '../../../../server/log';
import { tempDir } from '../../../support/serverProcess';

function store(home = tempDir('threadline-auth-')) {
  const lines: string[] = [];
  return {
    home,
    lines,
    auth: new AuthStore(
      home,
      createLogger('trace', (line) => lines.push(line)),
    ),
  };
}

const mode = (path: string) => statSync(path).mode & 0o777;

describe('AuthStore', () => {
  it('stores keys per provider in an owner-only file, and removes them', async () => {
    const { home, auth } = store();
    assert.equal(await auth.apiKey('openai'), null);
    await auth.setApiKey('openai', 'sk-one');
    await auth.setApiKey('anthropic', 'sk-two');
    assert.equal(mode(auth.path), 0o600);
    assert.deepEqual(JSON.parse(readFileSync(auth.path, 'utf8')), {
      providers: { openai: { apiKey: 'sk-one' }, anthropic: { apiKey: 'sk-two' } },
    });
    assert.equal(await auth.apiKey('anthropic'), 'sk-two');
    await auth.setApiKey('openai', null);
    assert.equal(await auth.apiKey('openai'), null);
    assert.equal(await auth.apiKey('toString'), null);
    assert.deepEqual(readdirSync(home), ['auth.json'], 'no temporary files left behind');
  });

  it('keeps every key when logins overlap', async () => {
    const { auth } = store();
    await Promise.all(['a', 'b', 'c', 'd', 'e'].map((id) => auth.setApiKey(id, `sk-${id}`)));
    const { providers } = JSON.parse(readFileSync(auth.path, 'utf8')) as { providers: object };
    assert.deepEqual(Object.keys(providers).sort(), ['a', 'b', 'c', 'd', 'e']);
  });

  it('makes a file others can read owner-only again', async () => {
    const { home, auth, lines } = store();
    writeFileSync(join(home, 'auth.json'), JSON.stringify({ providers: { openai: { apiKey: 'sk-x' } } }));
    chmodSync(join(home, 'auth.json'), 0o644);
    assert.equal(await auth.apiKey('openai'), 'sk-x');
    assert.equal(mode(auth.path), 0o600);
    assert.match(lines.join(''), /readable by other users/);
  });

  it('treats a damaged file as empty, keeps a copy, and never quotes it', async () => {
    const { home, auth, lines } = store();
    const damaged = '{"providers": {"openai": {"apiKey": "sk-half-written';
    writeFileSync(join(home, 'auth.json'), damaged, { mode: 0o600 });
    assert.equal(await auth.apiKey('openai'), null);
    assert.equal(readFileSync(join(home, 'auth.json.corrupt'), 'utf8'), damaged);
    assert.equal(mode(join(home, 'auth.json.corrupt')), 0o600);
    await auth.setApiKey('anthropic', 'sk-new');
    assert.deepEqual(JSON.parse(readFileSync(auth.path, 'utf8')), {
      providers: { anthropic: { apiKey: 'sk-new' } },
    });
    assert.equal(
      readFileSync(join(home, 'auth.json.corrupt'), 'utf8'),
      damaged,
      'the copy survives the write',
    );
    assert.match(lines.join(''), /auth\.json cannot be read/);
    assert.ok(!lines.join('').includes('sk-'), 'no key in the log');
  });

  it('treats valid JSON of the wrong shape as damaged too', async () => {
    const { home, auth } = store();
    writeFileSync(join(home, 'auth.json'), '{"providers": ["sk-x"]}');
    assert.equal(await auth.apiKey('0'), null);
    assert.ok(existsSync(join(home, 'auth.json.corrupt')));
  });

  it('creates the home directory when it is missing', async () => {
    const { auth } = store(join(tempDir('threadline-auth-'), 'nested', 'home'));
    await auth.setApiKey('openai', 'sk-x');
    assert.equal(await auth.apiKey('openai'), 'sk-x');
  });
});
