// Where a sandboxed command may start, per policy, against real folders.
import assert from 'node:assert/strict';
import { mkdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { workdirProblem } from '../../../../server/sandbox/workdir';
import { tempDir } from '../../../support/serverProcess';

describe('command workdir', () => {
  let workspace: string;
  let home: string;
  const savedHome = process.env.THREADLINE_HOME;
  beforeEach(() => {
    workspace = realpathSync(tempDir('threadline-workdir-'));
    home = realpathSync(tempDir('threadline-workdir-home-'));
    mkdirSync(join(workspace, 'src'));
    process.env.THREADLINE_HOME = home;
  });
  afterEach(() => {
    if (savedHome === undefined) delete process.env.THREADLINE_HOME;
    else process.env.THREADLINE_HOME = savedHome;
  });

  const write = { type: 'workspaceWrite' as const, excludeTmpdirEnvVar: true };

  it('workspaceWrite: inside the writable roots only, never in .git or the home', async () => {
    mkdirSync(join(workspace, '.git'));
    assert.equal(await workdirProblem(join(workspace, 'src'), write, workspace, {}), null);
    // Even a policy that lists the home as a writable root does not open it.
    assert.match(
      String(await workdirProblem(home, { ...write, writableRoots: [home] }, workspace, {})),
      /protected folder/,
    );
    assert.match(
      String(await workdirProblem('/usr', write, workspace, {})),
      /outside the sandbox's writable roots/,
    );
    assert.match(
      String(await workdirProblem(join(workspace, '.git'), write, workspace, {})),
      /protected folder/,
    );
  });

  it('readOnly: any existing folder but the home; full access: anything', async () => {
    const readOnly = { type: 'readOnly' as const };
    assert.equal(await workdirProblem('/usr', readOnly, workspace, {}), null);
    assert.match(String(await workdirProblem(home, readOnly, workspace, {})), /protected folder/);
    assert.match(
      String(await workdirProblem(join(workspace, 'nope'), readOnly, workspace, {})),
      /not an existing folder/,
    );
    assert.equal(await workdirProblem(home, { type: 'dangerFullAccess' }, workspace, {}), null);
  });
});
