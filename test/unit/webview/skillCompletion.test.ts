// `$name` skill completion in the composer (jsdom, real React): the host's skills ranked for what
// is typed after `$`, arrows and Enter insert `$name`, and the sent prompt carries the picked
// skill as a skill item only while the text still names it. The pure helpers are checked alone.
import * as assert from 'node:assert/strict';
import { createElement } from 'react';
import type { SkillMetadata } from '../../../server/protocol/skillMethods';
import { rankSkills, skillItems, skillQueryAt } from '../../../webview/composer/skillMention';
import { snapshot, threadId, turn, userMessage } from './conversationFixtures';
import { useAppDom } from './dom';

const skill = (name: string, description: string, displayName?: string): SkillMetadata => ({
  name,
  description,
  path: `/skills/${name}/SKILL.md`,
  scope: 'user',
  enabled: true,
  interface: displayName ? { displayName } : null,
});

const skills = [
  skill('lint', 'Run the linters'),
  skill('release-notes', 'Write release notes', 'Changelog'),
  skill('deploy', 'Ship it to production'),
];

describe('skill mentions', () => {
  it('finds the $query at the caret, and only after whitespace', () => {
    assert.deepEqual(skillQueryAt('use $li', 7), { start: 4, query: 'li' });
    assert.deepEqual(skillQueryAt('$', 1), { start: 0, query: '' });
    assert.equal(skillQueryAt('costs 5$li', 10), null);
    assert.equal(skillQueryAt('use $lint now', 13), null);
  });

  it('ranks prefix matches first, then names and titles that contain the query', () => {
    assert.deepEqual(
      rankSkills(skills, 'l').map((s) => s.name),
      ['lint', 'deploy', 'release-notes'],
    );
    assert.deepEqual(
      rankSkills(skills, 'change').map((s) => s.name),
      ['release-notes'],
    );
    assert.deepEqual(
      rankSkills(skills, '').map((s) => s.name),
      ['deploy', 'lint', 'release-notes'],
    );
  });

  it('carries a picked skill only while the text names it', () => {
    const [lint, notes] = skills;
    assert.deepEqual(skillItems('run $lint.', [lint!, notes!]), [
      { type: 'skill', name: 'lint', path: '/skills/lint/SKILL.md' },
    ]);
    assert.deepEqual(skillItems('run $linter', [lint!]), []);
    assert.deepEqual(skillItems('no mention of lint', [lint!]), []);
  });
});

describe('webview composer $ completion (jsdom)', () => {
  const app = useAppDom();

  async function open() {
    const page = new app.Page(
      {
        listModels: () => ({ models: [] }),
        startTurn: () => ({ turnId: 't2' }),
        suggestMentions: () => ({ suggestions: [] }),
        listSkills: () => ({ skills }),
      },
      {},
    );
    await page.render(createElement(app.App));
    await page.receive({
      type: 'snapshot',
      seq: 0,
      snapshot: snapshot([turn('t1', [userMessage('u1', 'hi')], 'completed')]),
      context: { kind: 'sidebar', restricted: false },
    });
    return page;
  }

  it('offers skills after $, inserts the chosen one, and sends it as a skill item', async () => {
    const page = await open();
    await page.type('please $');
    await page.until(() => page.all('[aria-label="Skills"] [role="option"]').length === 3);
    await page.type('please $e');
    await page.until(() => page.all('[aria-label="Skills"] [role="option"]').length === 2);
    const options = page.all('[aria-label="Skills"] [role="option"]');
    assert.deepEqual(
      options.map((o) => o.querySelector('.tl-skill-name')?.textContent),
      ['$deploy', '$release-notes'],
    );
    await page.key({ key: 'ArrowDown' });
    await page.key({ key: 'Enter' });
    const input = page.find('textarea') as HTMLTextAreaElement;
    assert.equal(input.value, 'please $release-notes ');
    assert.deepEqual(page.requests('startTurn'), [], 'Enter chose the skill, it did not send');
    assert.equal(page.all('[aria-label="Skills"]').length, 0, 'the list closes');
    assert.equal(page.requests('listSkills').length, 1, 'skills are asked for once');

    await page.type('please $release-notes for 1.2');
    await page.key({ key: 'Enter' });
    assert.deepEqual(page.requests('startTurn'), [
      {
        threadId,
        input: [
          { type: 'text', text: 'please $release-notes for 1.2' },
          { type: 'skill', name: 'release-notes', path: '/skills/release-notes/SKILL.md' },
        ],
        overrides: {},
      },
    ]);
    await page.unmount();
  });

  it('closes on Escape and lets Enter send again', async () => {
    const page = await open();
    await page.type('go $de');
    await page.until(() => page.all('[aria-label="Skills"] [role="option"]').length === 1);
    await page.key({ key: 'Escape' });
    assert.equal(page.all('[aria-label="Skills"]').length, 0);
    await page.key({ key: 'Enter' });
    assert.deepEqual(page.requests('startTurn'), [
      { threadId, input: [{ type: 'text', text: 'go $de' }], overrides: {} },
    ]);
    await page.unmount();
  });
});
