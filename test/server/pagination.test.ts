import { strict as assert } from 'node:assert';
import { ServerProcess, tempDir } from '../support/serverProcess';
import { writeRollout } from '../support/rollouts';

describe('thread/list pagination over 1,000 threads', () => {
  let server: ServerProcess;
  const home = tempDir();
  const ids = new Set<string>();
  const created: string[] = [];

  before(async () => {
    const now = Date.now();
    for (let i = 0; i < 1000; i++) {
      // Several threads per second, so pages cross equal createdAt values and the id breaks ties.
      ids.add(writeRollout(home, { createdAtMs: now - 600_000 + i * 300, cwd: `/w/${i % 7}` }).id);
    }
    server = ServerProcess.start({ home });
    await server.initialize({ name: 'threadline_vscode' });
  });

  after(async () => server.stop());

  for (const direction of ['desc', 'asc'] as const) {
    it(`has no duplicates or gaps (${direction}) while new threads are created between pages`, async () => {
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const page: { data: { id: string; createdAt: number }[]; nextCursor: string | null } =
          await server.call('thread/list', { limit: 37, cursor, sortDirection: direction });
        seen.push(...page.data.map((t) => t.id));
        cursor = page.nextCursor;
        pages++;
        created.push((await server.call<{ thread: { id: string } }>('thread/start', {})).thread.id);
      } while (cursor);
      const fromFixture = seen.filter((id) => ids.has(id));
      assert.equal(new Set(seen).size, seen.length, 'no thread listed twice');
      assert.equal(fromFixture.length, 1000, 'every stored thread listed once');
      // New threads are newer than any cursor: descending never reaches them, ascending ends with them.
      const extras = seen.filter((id) => !ids.has(id));
      if (direction === 'desc') assert.deepEqual(extras, []);
      else assert.ok(extras.every((id) => created.includes(id)));
      const sorted = [...fromFixture].sort();
      assert.deepEqual(fromFixture, direction === 'desc' ? sorted.reverse() : sorted, 'in creation order');
      assert.ok(pages >= 28);
    });
  }
});
