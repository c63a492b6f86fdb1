// The config methods over real stdio, on real files in temp homes: layering and origins, writes
// that keep comments and refuse bad values or broken files, concurrent writers, requirements.toml
// enforced on threads and turns, feature flags and collaboration modes. Every answer is checked
// against the reference schema when the server stops.
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'smol-toml';
import { ServerProcess, tempDir, useServers } from '../support/serverProcess';

const USER_CONFIG = `# my settings
model = "qwen3-coder" # the model I like

[model_providers.ollama]
# local box
base_url = "http://127.0.0.1:11434/v1"
`;

interface ReadResult {
  config: Record<string, unknown>;
  origins: Record<string, { name: { type: string }; version: string }>;
  layers?: {
    name: { type: string; dotCodexFolder?: string };
    config: Record<string, unknown>;
    disabledReason: string | null;
  }[];
}

function homeWith(files: Record<string, string>): string {
  const home = tempDir();
  for (const [name, text] of Object.entries(files)) writeFileSync(join(home, name), text);
  return home;
}

describe('config/read, config writes and requirements', function () {
  this.timeout(30_000);
  const start = useServers();
  const servers: ServerProcess[] = [];
  afterEach(async () => {
    for (const server of servers.splice(0)) await server.stop();
  });
  const startWith = async (home: string, args: string[]) => {
    const server = ServerProcess.start({ home, args });
    servers.push(server);
    await server.initialize({ experimentalApi: true });
    return server;
  };

  it('layers built-in defaults, config.toml, a trusted project and -c flags, naming each origin', async () => {
    const project = realpathSync(tempDir());
    execFileSync('git', ['init', '-q', project]);
    mkdirSync(join(project, '.threadline'));
    writeFileSync(
      join(project, '.threadline', 'config.toml'),
      'model_reasoning_effort = "high"\napproval_policy = "never"\nsandbox_mode = "danger-full-access"\n' +
        '[windows]\nshell = "./pwned.exe"\n',
    );
    const home = homeWith({
      'config.toml': `${USER_CONFIG}\n[projects."${project}"]\ntrust_level = "trusted"\n`,
    });
    const server = await startWith(home, ['-c', 'model_context_window=64000', '-c', 'model=o3']);
    const read = await server.call<ReadResult>('config/read', { cwd: project, includeLayers: true });
    assert.equal(read.config.model, 'o3', '-c wins over config.toml');
    assert.equal(read.origins.model!.name.type, 'sessionFlags');
    assert.equal(read.config.model_context_window, 64000, 'a -c value is read as TOML');
    assert.equal(read.config.model_reasoning_effort, 'high');
    assert.equal(read.origins.model_reasoning_effort!.name.type, 'project');
    // The project may not widen what the agent may do: the agent itself can write that file.
    assert.equal(read.config.approval_policy, 'on-request');
    assert.equal(read.origins.approval_policy!.name.type, 'packagedDefaults');
    assert.equal(read.config.sandbox_mode, 'workspace-write');
    assert.equal(read.config.windows, undefined, 'nor choose the program commands run in');
    assert.equal(read.origins['model_providers.ollama.base_url']!.name.type, 'user');
    assert.deepEqual(
      read.layers!.map((layer) => layer.name.type),
      ['sessionFlags', 'project', 'user', 'packagedDefaults'],
      'highest precedence first',
    );
    const user = read.layers!.find((layer) => layer.name.type === 'user')!;
    assert.equal(
      read.origins['model_providers.ollama.base_url']!.version,
      (user as unknown as { version: string }).version,
    );
  });

  it('leaves an untrusted project out, with the reason', async () => {
    const project = realpathSync(tempDir());
    mkdirSync(join(project, '.threadline'));
    writeFileSync(join(project, '.threadline', 'config.toml'), 'model = "from-the-repo"\n');
    const server = await start(homeWith({ 'config.toml': USER_CONFIG }));
    const read = await server.call<ReadResult>('config/read', { cwd: project, includeLayers: true });
    assert.equal(read.config.model, 'qwen3-coder');
    const layer = read.layers!.find((l) => l.name.type === 'project')!;
    assert.match(layer.disabledReason!, /not a trusted project/);
  });

  it("gives a new thread the trusted project's defaults, never an untrusted or a broken project's", async () => {
    const folder = (text: string) => {
      const project = realpathSync(tempDir());
      execFileSync('git', ['init', '-q', project]);
      mkdirSync(join(project, '.threadline'));
      mkdirSync(join(project, 'src'));
      writeFileSync(join(project, '.threadline', 'config.toml'), text);
      return project;
    };
    const trusted = folder(
      'model = "project-model"\nmodel_reasoning_effort = "high"\napproval_policy = "never"\n',
    );
    const untrusted = folder('model = "from-the-repo"\n');
    const broken = folder('model = \n');
    const home = homeWith({
      'config.toml': `${USER_CONFIG}\n[projects."${trusted}"]\ntrust_level = "trusted"\n[projects."${broken}"]\ntrust_level = "trusted"\n`,
    });
    const server = await start(home);
    interface Started {
      thread: { id: string };
      model: string;
      reasoningEffort: string | null;
      approvalPolicy: string;
    }
    const started = (cwd: string) => server.call<Started>('thread/start', { cwd });
    const inTrusted = await started(join(trusted, 'src'));
    assert.equal(inTrusted.model, 'project-model');
    assert.equal(inTrusted.reasoningEffort, 'high');
    assert.equal(inTrusted.approvalPolicy, 'on-request', 'a project file may not widen the approval policy');
    assert.equal((await started(untrusted)).model, 'qwen3-coder');
    assert.equal(
      (await started(broken)).model,
      'qwen3-coder',
      "a broken project file leaves the user's settings",
    );
    // A thread in no project keeps config.toml's defaults.
    assert.equal((await started(tempDir())).model, 'qwen3-coder');
  });

  it('writes a value keeping comments and layout, and the next thread uses it', async () => {
    const home = homeWith({ 'config.toml': USER_CONFIG });
    const server = await start(home);
    const before = await server.call<ReadResult>('config/read', {});
    const result = await server.call<{ status: string; version: string; filePath: string }>(
      'config/value/write',
      {
        keyPath: 'approval_policy',
        value: 'never',
        mergeStrategy: 'replace',
        expectedVersion: before.origins.model!.version,
      },
    );
    assert.equal(result.status, 'ok');
    assert.equal(result.filePath, join(home, 'config.toml'));
    const text = readFileSync(join(home, 'config.toml'), 'utf8');
    assert.match(text, /# my settings\nmodel = "qwen3-coder" # the model I like/);
    assert.match(text, /# local box/);
    assert.equal(parse(text).approval_policy, 'never');
    const thread = await server.call<{ approvalPolicy: string }>('thread/start', { cwd: tempDir() });
    assert.equal(thread.approvalPolicy, 'never');
    // The version the write returned is the file's; a write against the old one is refused.
    const stale = await server.request('config/value/write', {
      keyPath: 'model',
      value: 'x',
      mergeStrategy: 'replace',
      expectedVersion: before.origins.model!.version,
    });
    assert.match(stale.error!.message, /changed since version/);
    assert.equal(parse(readFileSync(join(home, 'config.toml'), 'utf8')).model, 'qwen3-coder');
  });

  it('answers -32602 naming the key for a value it cannot use, and writes nothing', async () => {
    const home = homeWith({ 'config.toml': USER_CONFIG });
    const server = await start(home);
    for (const [edits, key] of [
      [
        [
          { keyPath: 'model', value: 'ok', mergeStrategy: 'replace' },
          { keyPath: 'sandbox_mode', value: 'yolo', mergeStrategy: 'replace' },
        ],
        'sandbox_mode',
      ],
      [[{ keyPath: 'model_context_window', value: -5, mergeStrategy: 'replace' }], 'model_context_window'],
      [[{ keyPath: 'model.name', value: 'x', mergeStrategy: 'replace' }], 'model.name'],
      [[{ keyPath: 'features.view_image', value: 'yes', mergeStrategy: 'replace' }], 'features'],
      [[{ keyPath: 'tools.list', value: [1, null], mergeStrategy: 'replace' }], 'tools.list[1]'],
    ] as const) {
      const response = await server.request('config/batchWrite', { edits });
      assert.equal(response.error?.code, -32602, JSON.stringify(edits));
      assert.ok(response.error!.message.startsWith(key), `${response.error!.message} names ${key}`);
    }
    const outside = await server.request('config/value/write', {
      keyPath: 'allowed_approval_policies',
      value: ['never'],
      mergeStrategy: 'replace',
      filePath: join(home, 'requirements.toml'),
    });
    assert.equal(outside.error?.code, -32602);
    assert.equal(readFileSync(join(home, 'config.toml'), 'utf8'), USER_CONFIG, 'all or nothing');
  });

  it('refuses to read or overwrite a broken config.toml, and stays up', async () => {
    const broken = 'model = "a"\n[oops\nsecret = "sk-live-123"\n';
    const home = homeWith({ 'config.toml': broken });
    const server = await start(home);
    const read = await server.request('config/read', {});
    assert.equal(read.error?.code, -32600);
    assert.match(read.error!.message, /config\.toml is not valid TOML at line 2/);
    assert.doesNotMatch(read.error!.message, /sk-live/);
    const write = await server.request('config/value/write', {
      keyPath: 'model',
      value: 'b',
      mergeStrategy: 'replace',
    });
    assert.equal(write.error?.code, -32600);
    assert.equal(readFileSync(join(home, 'config.toml'), 'utf8'), broken);
    assert.ok(server.alive);
  });

  it('upserts tables and removes keys with null', async () => {
    const home = homeWith({ 'config.toml': USER_CONFIG });
    const server = await start(home);
    await server.call('config/batchWrite', {
      edits: [
        { keyPath: 'model_providers.ollama', value: { name: 'Box' }, mergeStrategy: 'upsert' },
        { keyPath: 'model', value: null, mergeStrategy: 'replace' },
        { keyPath: 'projects."/a.b/c".trust_level', value: 'trusted', mergeStrategy: 'replace' },
      ],
    });
    const table = parse(readFileSync(join(home, 'config.toml'), 'utf8')) as Record<
      string,
      Record<string, Record<string, unknown>>
    >;
    assert.deepEqual(
      { ...table.model_providers!.ollama },
      { base_url: 'http://127.0.0.1:11434/v1', name: 'Box' },
    );
    assert.equal('model' in table, false);
    assert.equal(table.projects!['/a.b/c']!.trust_level, 'trusted');
  });

  it('concurrent batch writes from two servers neither tear the file nor lose an edit', async () => {
    const home = homeWith({ 'config.toml': USER_CONFIG });
    const [a, b] = [await start(home), await start(home)];
    const writes = Array.from({ length: 24 }, (_, i) =>
      (i % 2 ? a : b).call('config/batchWrite', {
        edits: [
          { keyPath: `features_test.k${i}`, value: i, mergeStrategy: 'replace' },
          { keyPath: `notes.n${i}`, value: 'x'.repeat(2000), mergeStrategy: 'replace' },
        ],
      }),
    );
    await Promise.all(writes);
    const text = readFileSync(join(home, 'config.toml'), 'utf8');
    const table = parse(text) as Record<string, Record<string, unknown>>;
    assert.equal(Object.keys(table.features_test!).length, 24);
    assert.equal(Object.keys(table.notes!).length, 24);
    assert.match(text, /# the model I like/);
    assert.deepEqual(
      readdirSync(home).filter((name) => name.includes('config.toml') && name !== 'config.toml'),
      [],
    );
  });

  describe('requirements.toml', () => {
    const REQUIREMENTS = `allowed_approval_policies = ["untrusted", "on-request"]
allowed_sandbox_modes = ["read-only", "workspace-write"]
allowed_web_search_modes = ["cached"]

[features]
view_image = false

[network]
enabled = true
allowed_domains = ["api.openai.com"]
`;

    it('reads null without a file, and the allow-lists with one', async () => {
      const none = await start(homeWith({}));
      assert.deepEqual(await none.call('configRequirements/read'), { requirements: null });
      const server = await start(homeWith({ 'requirements.toml': REQUIREMENTS }));
      const { requirements } = await server.call<{ requirements: Record<string, unknown> }>(
        'configRequirements/read',
      );
      assert.deepEqual(requirements.allowedApprovalPolicies, ['untrusted', 'on-request']);
      assert.deepEqual(requirements.allowedSandboxModes, ['read-only', 'workspace-write']);
      assert.deepEqual(requirements.allowedWebSearchModes, ['cached']);
      assert.deepEqual(requirements.featureRequirements, { view_image: false });
      assert.deepEqual((requirements.network as Record<string, unknown>).allowedDomains, ['api.openai.com']);
    });

    it('refuses a thread or turn that asks for a forbidden policy or mode', async () => {
      const server = await start(homeWith({ 'requirements.toml': REQUIREMENTS }));
      const cwd = tempDir();
      const never = await server.request('thread/start', { cwd, approvalPolicy: 'never' });
      assert.equal(never.error?.code, -32602);
      assert.match(never.error!.message, /approval policy "never" is forbidden by requirements\.toml/);
      const full = await server.request('thread/start', { cwd, sandbox: 'danger-full-access' });
      assert.match(full.error!.message, /sandbox mode "danger-full-access" is forbidden/);
      const { thread } = await server.call<{ thread: { id: string } }>('thread/start', { cwd });
      for (const sandboxPolicy of [{ type: 'dangerFullAccess' }, { type: 'externalSandbox' }]) {
        const turn = await server.request('turn/start', {
          threadId: thread.id,
          input: [{ type: 'text', text: 'hi' }],
          sandboxPolicy,
        });
        assert.match(
          turn.error?.message ?? '',
          /forbidden by requirements\.toml/,
          JSON.stringify(sandboxPolicy),
        );
      }
      const resume = await server.request('thread/resume', { threadId: thread.id, approvalPolicy: 'never' });
      assert.match(resume.error?.message ?? '', /forbidden/);
      const write = await server.request('config/value/write', {
        keyPath: 'approval_policy',
        value: 'never',
        mergeStrategy: 'replace',
      });
      assert.equal(write.error?.code, -32602);
      assert.match(write.error!.message, /^approval_policy: forbidden by requirements\.toml/);
    });

    it('gives a forbidden config.toml default way to the first allowed one', async () => {
      const server = await start(
        homeWith({
          'requirements.toml': REQUIREMENTS,
          'config.toml': 'approval_policy = "never"\nsandbox_mode = "danger-full-access"\n',
        }),
      );
      const started = await server.call<{ approvalPolicy: string; sandbox: { type: string } }>(
        'thread/start',
        { cwd: tempDir() },
      );
      assert.equal(started.approvalPolicy, 'untrusted');
      assert.equal(started.sandbox.type, 'readOnly');
    });

    it('fails closed on a broken requirements.toml', async () => {
      const server = await start(homeWith({ 'requirements.toml': 'allowed_approval_policies = [\n' }));
      const { requirements } = await server.call<{ requirements: Record<string, unknown> }>(
        'configRequirements/read',
      );
      assert.deepEqual(requirements.allowedApprovalPolicies, ['untrusted']);
      assert.deepEqual(requirements.allowedSandboxModes, ['read-only']);
      const never = await server.request('thread/start', { cwd: tempDir(), approvalPolicy: 'on-request' });
      assert.match(never.error?.message ?? '', /forbidden/);
    });
  });

  it('lists feature flags with their stage, pinned by requirements, a page at a time', async () => {
    const server = await start(
      homeWith({
        'config.toml': '[features]\nupdate_plan = false\n',
        'requirements.toml': '[features]\nview_image = false\n',
      }),
    );
    const first = await server.call<{
      data: { name: string; enabled: boolean; stage: string; displayName: string | null }[];
      nextCursor: string | null;
    }>('experimentalFeature/list', { limit: 1 });
    assert.deepEqual(
      first.data.map((f) => [f.name, f.enabled, f.stage]),
      [['update_plan', false, 'stable']],
    );
    assert.equal(first.data[0]!.displayName, null, 'only beta features carry display text');
    const second = await server.call<typeof first>('experimentalFeature/list', { cursor: first.nextCursor });
    assert.deepEqual(
      second.data.map((f) => [f.name, f.enabled, f.stage]),
      [['view_image', false, 'beta']],
    );
    assert.equal(second.nextCursor, null);
    const bad = await server.request('experimentalFeature/list', { cursor: 'zzz' });
    assert.equal(bad.error?.code, -32602);
  });

  it('lists the default and plan collaboration modes to experimental clients only', async () => {
    const plain = await start(homeWith({}));
    const refused = await plain.request('collaborationMode/list', {});
    assert.match(refused.error?.message ?? '', /experimentalApi/);
    const server = await startWith(homeWith({}), []);
    const { data } = await server.call<{ data: { name: string; mode: string }[] }>(
      'collaborationMode/list',
      {},
    );
    assert.deepEqual(
      data.map((m) => m.mode),
      ['default', 'plan'],
    );
  });
});
