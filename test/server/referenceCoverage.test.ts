// The reference-coverage listing: every client method of the reference's stable schema (Codex 0.169)
// sent once to the built server, and what it answered: a result, a named error, or -32601. Holds the
// known-missing list (test/support/referenceCoverage.ts) and docs/protocol.md's table to what the server does,
// and checks the cloud-only methods' refusals: -32600 naming why, after their params are checked.
import { strict as assert } from 'node:assert';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cloudOnlyMessage, cloudOnlyReasons } from '../../server/methods/cloudOnly';
import { useModelServer } from '../fixtures/modelServer/server';
import { agentHome } from '../support/agent';
import { referenceClientMethods } from '../support/codexSchema';
import {
  docsCoverageTable,
  KNOWN_MISSING,
  referenceCoverage,
  renderCoverageTable,
} from '../support/referenceCoverage';
import { tempDir, useServers } from '../support/serverProcess';

type CloudOnly = keyof typeof cloudOnlyReasons;

/** Valid params for the refused methods (so the refusal, not validation, answers) and invalid ones. */
const refusedParams: Record<CloudOnly, { valid?: unknown; invalid: unknown }> = {
  'account/gatewayOAuth/read': { valid: { modelProvider: 'openai' }, invalid: { modelProvider: 7 } },
  'account/gatewayOAuth/login': { valid: { deviceAuth: true }, invalid: { deviceAuth: 'yes' } },
  'account/gatewayOAuth/cancel': { invalid: [1] },
  'account/rateLimitResetCredit/consume': { valid: { idempotencyKey: 'k-1' }, invalid: { creditId: 'c' } },
  'account/sendAddCreditsNudgeEmail': { valid: { creditType: 'credits' }, invalid: { creditType: 'gold' } },
  'account/workspaceMessages/read': { invalid: [1] },
  'account/securitySetup/read': { invalid: [1] },
  'thread/approveGuardianDeniedAction': { valid: { threadId: 't', event: {} }, invalid: { event: {} } },
  'plugin/share/save': { valid: { pluginPath: '/tmp/plugin' }, invalid: { remotePluginId: 'p' } },
  'plugin/share/updateTargets': {
    valid: { remotePluginId: 'p', discoverability: 'PRIVATE', shareTargets: [] },
    invalid: { remotePluginId: 'p', discoverability: 'SECRET', shareTargets: [] },
  },
  'plugin/share/list': { invalid: [1] },
  'plugin/share/checkout': { valid: { remotePluginId: 'p' }, invalid: { remotePluginId: 5 } },
  'plugin/share/delete': { valid: { remotePluginId: 'p' }, invalid: {} },
};

describe('reference coverage (every client method of Codex 0.169)', function () {
  this.timeout(60_000);
  const model = useModelServer();
  const start = useServers();

  it('answers every method; only the known-missing ones say method not found', async () => {
    const server = await start(agentHome('responses', model.baseUrl), 'threadline_vscode', undefined, {
      experimentalApi: true,
    });
    const listing: { method: string; answer: string; code?: number }[] = [];
    for (const { method, paramsOptional } of referenceClientMethods()) {
      const cloud = refusedParams[method as CloudOnly];
      const params = cloud ? cloud.valid : paramsOptional ? undefined : {};
      const response = await server.request(method, params);
      listing.push(
        response.error
          ? {
              method,
              answer: `error ${response.error.code}: ${response.error.message}`,
              code: response.error.code,
            }
          : { method, answer: 'result' },
      );
    }
    const report = listing.map(({ method, answer }) => `${method}\t${answer}`).join('\n');
    const file = join(tempDir('threadline-coverage-'), 'reference-coverage.tsv');
    writeFileSync(file, `${report}\n`);
    const missing = listing.filter((entry) => entry.code === -32601).map((entry) => entry.method);
    console.log(
      `      reference coverage: ${listing.length} methods, ${listing.length - missing.length} answered, ` +
        `${missing.length} method not found (listing: ${file})`,
    );

    assert.equal(listing.length, 109, 'the reference schema has 109 client methods');
    const regressed = missing.filter((method) => !KNOWN_MISSING.includes(method));
    const landed = KNOWN_MISSING.filter((method) => !missing.includes(method));
    assert.deepEqual(regressed, [], `answer -32601 but are not in KNOWN_MISSING:\n${report}`);
    assert.deepEqual(
      landed,
      [],
      'served now: remove them from KNOWN_MISSING (test/support/referenceCoverage.ts) and run ' +
        '`npx tsx bench/coverageTable.ts --write`',
    );
    for (const row of referenceCoverage()) {
      const entry = listing.find((e) => e.method === row.method)!;
      if (row.status === 'refused') {
        assert.equal(entry.answer, `error -32600: ${cloudOnlyMessage(row.method as CloudOnly)}`, row.method);
      }
    }
    assert.ok(server.alive, 'the server is still running');
  });

  it('checks a refused method’s params first: -32602 on bad params', async () => {
    const server = await start(agentHome('responses', model.baseUrl));
    for (const [method, { invalid }] of Object.entries(refusedParams)) {
      const response = await server.request(method, invalid);
      assert.equal(
        response.error?.code,
        -32602,
        `${method} ${JSON.stringify(invalid)}: ${JSON.stringify(response)}`,
      );
      assert.match(response.error!.message, /^Invalid params: /, method);
    }
    assert.deepEqual(Object.keys(refusedParams).sort(), Object.keys(cloudOnlyReasons).sort());
  });

  it('docs/protocol.md’s coverage table is the one the listing holds', async () => {
    assert.equal(
      docsCoverageTable(),
      await renderCoverageTable(),
      'docs/protocol.md is out of date: run `npx tsx bench/coverageTable.ts --write`',
    );
  });
});
