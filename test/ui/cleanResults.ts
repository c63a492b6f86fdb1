// Loaded once by test/ui/.mocharc.json: each UI run starts with an empty test-results/ui/, so every
// screenshot and FAILED-* file there belongs to this run.
import { rmSync } from 'node:fs';
import { resultsPath } from '../support/harness/paths';

rmSync(resultsPath('ui'), { recursive: true, force: true });
