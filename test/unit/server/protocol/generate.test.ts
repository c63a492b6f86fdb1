import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv';
import { serverBundle, repoRoot } from '../../../support/paths';
import { tempDir } from '../../../support/serverProcess';

function generate(command: string, experimental: boolean): string {
  const out = tempDir('threadline-gen-');
  const args = [
    serverBundle,
    'app-server',
    command,
    '--out',
    out,
    ...(experimental ? ['--experimental'] : []),
  ];
  const result = spawnSync(process.execPath, args, { encoding: 'utf8' });
  assert.equal(result.status, 0, result.stderr);
  return out;
}

describe('schema output', () => {
  it('writes a JSON Schema bundle that compiles, with experimental fields only on request', () => {
    const stable = generate('generate-json-schema', false);
    const bundle = JSON.parse(
      readFileSync(join(stable, 'threadline_app_server_protocol.schemas.json'), 'utf8'),
    );
    const ajv = new Ajv({ strict: false });
    ajv.addSchema(bundle, 'bundle');
    const validate = ajv.compile({ $ref: 'bundle#/definitions/ClientRequest' });
    assert.ok(validate({ id: 1, method: 'thread/list', params: { limit: 5 } }));
    assert.ok(!validate({ id: 1, method: 'thread/list', params: { limit: 'five' } }));
    assert.ok(readdirSync(stable).includes('ThreadStartParams.json'));
    // The methods answered only with a refusal (methods/cloudOnly.ts) are not offered.
    assert.ok(!validate({ id: 1, method: 'plugin/share/list', params: {} }));
    assert.ok(!readdirSync(stable).includes('PluginShareListParams.json'));
    const serverRequest = ajv.compile({ $ref: 'bundle#/definitions/ServerRequest' });
    const approval = { threadId: 't', turnId: 'u', itemId: 'i', startedAtMs: 1 };
    assert.ok(serverRequest({ id: 0, method: 'item/fileChange/requestApproval', params: approval }));
    assert.ok(!serverRequest({ id: 0, method: 'item/fileChange/requestApproval', params: {} }));
    assert.equal(bundle.definitions.ThreadStartParams.properties.dynamicTools, undefined);
    assert.equal(bundle.definitions.InitializeResponse.properties.threadline, undefined);
    const fileDecision = ajv.compile({ $ref: 'bundle#/definitions/ItemFileChangeRequestApprovalResponse' });
    const edits = { decision: { acceptWithEdits: { files: [{ path: '/a', content: 'x' }] } } };
    assert.ok(fileDecision({ decision: 'accept' }));
    assert.ok(!fileDecision(edits), 'the stable schema has no acceptWithEdits');
    const experimental = generate('generate-json-schema', true);
    const full = JSON.parse(readFileSync(join(experimental, 'ThreadStartParams.json'), 'utf8'));
    assert.ok(full.properties.dynamicTools);
    const fullDecision = JSON.parse(
      readFileSync(join(experimental, 'ItemFileChangeRequestApprovalResponse.json'), 'utf8'),
    );
    assert.ok(new Ajv({ strict: false }).validate(fullDecision, edits));
    const fullInit = JSON.parse(readFileSync(join(experimental, 'InitializeResponse.json'), 'utf8'));
    assert.ok(fullInit.properties.threadline);
  });

  it('writes TypeScript that typechecks and describes the methods', function () {
    // It runs tsc over the whole generated surface: seconds alone, far more on a loaded machine.
    this.timeout(90_000);
    const out = generate('generate-ts', true);
    const source = readFileSync(join(out, 'index.ts'), 'utf8');
    assert.match(source, /export type ThreadListParams = \{/);
    assert.match(source, /"thread\/start": \{ params: ThreadStartParams; result: ThreadStartResponse \}/);
    writeFileSync(
      join(out, 'use.ts'),
      "import type { ClientRequests } from './index';\n" +
        "const p: ClientRequests['thread/list']['params'] = { limit: 5, sortKey: 'updated_at' };\n" +
        'export default p;\n',
    );
    const tsc = join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc');
    const result = spawnSync(
      process.execPath,
      [tsc, '--noEmit', '--strict', '--skipLibCheck', join(out, 'use.ts')],
      {
        encoding: 'utf8',
      },
    );
    assert.equal(result.status, 0, result.stdout + result.stderr);
  });
});
