// Prints README's reference-coverage table, or with --write puts it in README.md. The table comes
// from test/support/referenceCoverage.ts, which the coverage test checks against the real server.
import { renderCoverageTable, writeReadmeCoverageTable } from '../test/support/referenceCoverage';

if (process.argv.includes('--write')) {
  writeReadmeCoverageTable();
  console.log('README.md: reference coverage table rewritten');
} else {
  console.log(renderCoverageTable());
}
