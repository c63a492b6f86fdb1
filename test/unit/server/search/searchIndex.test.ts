// The thread index on its own: every word must occur, a name match comes first, the last word may be
// the start of one, a thread indexed again is found by its new text only, and the saved form gives
// back the same answers (and is refused when it is from another format or broken).
import { strict as assert } from 'node:assert';
import { SearchIndex } from '../../../../server/search/searchIndex';

function corpus(): SearchIndex {
  const index = SearchIndex.empty();
  index.put({ id: 'a', name: '', text: 'The parser cache was stale after the rebuild.' }, 1);
  index.put({ id: 'b', name: 'Parser cache notes', text: 'Nothing else here.' }, 2);
  index.put({ id: 'c', name: '', text: 'The cache is warm; the handler_registry answers.' }, 3);
  index.put({ id: 'd', name: '', text: 'A handler runs the parser.' }, 4);
  return index;
}

describe('SearchIndex', () => {
  it('finds threads holding every word, those named so first', () => {
    assert.deepEqual(corpus().search('parser cache', 10).sort(), ['a', 'b']);
    assert.equal(corpus().search('Parser  CACHE', 10)[0], 'b');
    assert.deepEqual(corpus().search('parser zebra', 10), []);
    assert.deepEqual(corpus().search('  ', 10), []);
  });

  it('completes the last word from 3 letters, as the user types', () => {
    const index = corpus();
    assert.deepEqual(index.search('hand', 10).sort(), ['c', 'd']);
    assert.deepEqual(index.search('handler_reg', 10), ['c']);
    assert.deepEqual(index.search('warm hand', 10), ['c']);
    assert.deepEqual(index.search('ha', 10), [], 'two letters are too short a prefix');
    assert.deepEqual(index.search('rebuil', 10), ['a']);
  });

  it('keeps to the limit', () => {
    assert.equal(corpus().search('the', 1).length, 1);
  });

  it('finds a thread indexed again by its new text only, and a removed one no more', () => {
    const index = corpus();
    index.put({ id: 'a', name: 'Renamed', text: 'Now about zanzibar.' }, 5);
    assert.deepEqual(index.search('stale', 10), []);
    assert.deepEqual(index.search('zanzibar', 10), ['a']);
    assert.deepEqual(index.search('renamed', 10), ['a']);
    index.remove('d');
    assert.deepEqual(index.search('handler', 10), ['c']);
    assert.equal(index.indexedAt.get('a'), 5);
    assert.equal(index.indexedAt.has('d'), false);
  });

  it('saves and loads to the same answers', () => {
    const index = corpus();
    index.put({ id: 'a', name: '', text: 'Changed to talk of rebuild only.' }, 6);
    index.remove('c');
    const loaded = SearchIndex.parse(index.serialize());
    assert.ok(loaded);
    for (const query of ['parser cache', 'rebuild', 'hand', 'stale', 'warm', 'notes']) {
      assert.deepEqual(loaded.search(query, 10), index.search(query, 10), query);
    }
    assert.deepEqual([...loaded.indexedAt], [...index.indexedAt]);
    loaded.put({ id: 'e', name: '', text: 'A new rebuild.' }, 7);
    assert.deepEqual(loaded.search('rebuild', 10).sort(), ['a', 'e']);
  });

  it('refuses a saved index of another format or a broken one', () => {
    const saved = corpus().serialize();
    assert.equal(SearchIndex.parse(saved.replace('"format":2', '"format":1')), null);
    assert.equal(SearchIndex.parse('{"format":2,'), null);
    assert.equal(SearchIndex.parse(`${saved.split('\n')[0]}\ntexts 1.map broken`), null);
    assert.equal(SearchIndex.parse(''), null);
  });
});
