// Which key a provider uses: its env_key variable when set and non-empty, else auth.json.
import { strict as assert } from 'node:assert';
import { AuthStore } from '../../../../server/account/authStore';
import { apiKeyFor, missingKeyMessage, needsApiKey } from '../../../../server/account/credentials';
import { BUILT_IN_PROVIDERS } from '../../../../server/config/providers';
import { createLogger } from '../../../../server/log';
import type { ProviderConfig } from '../../../../server/providers/types';
import { tempDir } from '../../../support/serverProcess';

const ENV = 'THREADLINE_TEST_CREDENTIALS_KEY';
const provider = (fields: Partial<ProviderConfig>): ProviderConfig => ({
  ...BUILT_IN_PROVIDERS.find((p) => p.id === 'ollama')!,
  id: 'custom',
  name: 'Custom',
  ...fields,
});

describe('apiKeyFor', () => {
  let auth: AuthStore;
  beforeEach(
    () =>
      (auth = new AuthStore(
        tempDir('threadline-cred-'),
        createLogger('error', () => {}),
      )),
  );
  afterEach(() => delete process.env[ENV]);

  it('prefers the env_key variable over auth.json', async () => {
    const custom = provider({ envKey: ENV });
    await auth.setApiKey('custom', 'sk-stored');
    process.env[ENV] = 'sk-from-env';
    assert.equal(await apiKeyFor(custom, auth), 'sk-from-env');
    process.env[ENV] = '';
    assert.equal(await apiKeyFor(custom, auth), 'sk-stored', 'an empty variable does not count');
    delete process.env[ENV];
    assert.equal(await apiKeyFor(custom, auth), 'sk-stored');
  });

  it('uses auth.json for providers without env_key, and is null without any key', async () => {
    const local = provider({ envKey: null });
    assert.equal(await apiKeyFor(local, auth), null);
    await auth.setApiKey('custom', 'sk-stored');
    assert.equal(await apiKeyFor(local, auth), 'sk-stored');
  });

  it('says which providers need a key and how to give one', () => {
    assert.equal(needsApiKey(provider({ envKey: null })), false);
    assert.equal(needsApiKey(provider({ envKey: ENV })), true);
    const message = missingKeyMessage(provider({ envKey: ENV }));
    assert.match(message, new RegExp(`set ${ENV}`));
    assert.match(message, /account\/login\/start/);
  });
});
