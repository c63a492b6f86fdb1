// Prints README's reference-coverage table, or with --write puts it in README.md. The table comes
// from test/support/referenceCoverage.ts, which the coverage test checks against the real server.
import { renderCoverageTable, writeReadmeCoverageTable } from '../test/support/referenceCoverage';

async function main(): Promise<void> {
  if (!process.argv.includes('--write')) return console.log(await renderCoverageTable());
  await writeReadmeCoverageTable();
  console.log('README.md: reference coverage table rewritten');
}

void main();
