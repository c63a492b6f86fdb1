import { strict as assert } from 'node:assert';
import { foldHistory, type RolloutRecord, type ThreadMeta } from '../../../../server/threads/records';

const meta: ThreadMeta = {
  id: 't',
  createdAt: 1,
  cwd: '/w',
  modelProvider: 'openai',
  model: null,
  source: 'vscode',
  originator: null,
  cliVersion: '0',
  forkedFromId: null,
  gitInfo: null,
};

const turn = (turnId: string, ...texts: string[]): RolloutRecord[] => [
  { type: 'turn_started', ts: 1000, turnId },
  ...texts.map((text): RolloutRecord => ({ type: 'model', ts: 1000, turnId, entry: { kind: 'user', text } })),
  { type: 'turn_completed', ts: 2000, turnId, status: 'completed', error: null },
];
const texts = (records: RolloutRecord[]) => foldHistory(meta, records).modelHistory.map((e) => e.text);

describe('the model history folded from a rollout', () => {
  it('keeps entries in order across turns', () => {
    assert.deepEqual(texts([...turn('a', '1', '2'), ...turn('b', '3')]), ['1', '2', '3']);
  });

  it('drops the entries of rolled back and reverted turns', () => {
    const records = [...turn('a', '1'), ...turn('b', '2'), ...turn('c', '3')];
    assert.deepEqual(texts([...records, { type: 'rollback', ts: 3000, numTurns: 1 }]), ['1', '2']);
    assert.deepEqual(texts([...records, { type: 'revert', ts: 3000, beforeTurnId: 'b' }]), ['1']);
  });

  it('replaces everything before a compaction, and restores it when the compacting turn is rolled back', () => {
    const compacted: RolloutRecord = {
      type: 'compacted',
      ts: 1500,
      turnId: 'b',
      replacement: [{ kind: 'user', text: 'summary' }],
    };
    const records = [...turn('a', '1'), ...turn('b', '2').slice(0, 2), compacted, ...turn('b', '3').slice(1)];
    assert.deepEqual(texts(records), ['summary', '3']);
    assert.deepEqual(texts([...records, { type: 'rollback', ts: 3000, numTurns: 1 }]), ['1']);
  });

  it('ignores entries for turns that never started', () => {
    assert.deepEqual(
      texts([{ type: 'model', ts: 1, turnId: 'x', entry: { kind: 'user', text: 'lost' } }]),
      [],
    );
  });
});
