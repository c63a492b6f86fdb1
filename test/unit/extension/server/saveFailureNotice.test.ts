// When the extension tells the user that a turn could not be saved: once per reason, with the file
// and the reason, and again after a turn was saved meanwhile; never for other failures.
import { strict as assert } from 'node:assert';
import { SaveFailureNotice } from '../../../../extension/server/saveFailureNotice';
import type { TurnError } from '../../../../server/protocol/thread';

const failed = (message: string) => ({
  status: 'failed' as const,
  error: { message, codexErrorInfo: 'other', additionalDetails: null } satisfies TurnError,
});
const FULL =
  'The turn was not saved: cannot write /home/u/.threadline/sessions/rollout-x.jsonl: no space left on the disk (ENOSPC)';

describe('the notice for a turn that could not be saved', () => {
  it('names the file and the reason, once for a run of failed turns', () => {
    const notice = new SaveFailureNotice();
    const message = notice.next(failed(FULL));
    assert.match(message ?? '', /could not save .*rollout-x\.jsonl: no space left on the disk \(ENOSPC\)/);
    assert.equal(notice.next(failed(FULL)), undefined);
    assert.ok(notice.next(failed(FULL.replace('ENOSPC', 'EROFS'))), 'another reason is news');
  });

  it('says it again after a turn was saved, and never for other failures', () => {
    const notice = new SaveFailureNotice();
    assert.equal(notice.next(failed('The model provider had an internal error.')), undefined);
    assert.ok(notice.next(failed(FULL)));
    assert.equal(notice.next({ status: 'completed', error: null }), undefined);
    assert.ok(notice.next(failed(FULL)));
  });
});
