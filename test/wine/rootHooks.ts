// The Wine run (test/wine/.mocharc.json): the Windows suite, and the protocol suites from test/server
// it lists, whose ServerProcess starts the server under Wine (test/support/underWine.ts). Everything
// left in the Wine prefix ends with the run.
import { endWine, wineMissing } from './wineServer';

process.env.THREADLINE_TEST_WINE = '1';

export const mochaHooks = {
  beforeAll(this: Mocha.Context): void {
    const missing = wineMissing();
    if (missing) {
      console.log(`Wine suites skipped: ${missing}`);
      this.skip();
    }
  },
  afterAll: endWine,
};
