// Which of the composer toolbar's controls stay in its row: all when they fit, else as many as fit
// beside the overflow button, in order.
import * as assert from 'node:assert/strict';
import { fitCount } from '../../../webview/composer/ComposerToolbar';

describe('composer toolbar fit', () => {
  // model 100, effort 70, approvals 22, images 22; gaps of 4 between them; the "…" button 26.
  const widths = [100, 70, 22, 22];

  it('keeps every control in the row when they fit, to the pixel', () => {
    assert.equal(fitCount(widths, 226, 26), 4);
    assert.equal(fitCount(widths, 100 + 70 + 22 + 22 + 3 * 4, 26), 4);
  });

  it('moves the last ones to the overflow menu, leaving room for its button', () => {
    assert.equal(fitCount(widths, 225, 26), 2); // 100+4+70 +4+26 = 204 fits; +22+4 = 230 does not
    assert.equal(fitCount(widths, 130, 26), 1);
    assert.equal(fitCount(widths, 129, 26), 0);
    assert.equal(fitCount([], 0, 26), 0);
  });
});
