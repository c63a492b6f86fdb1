// Prints the reference-coverage table, or with --write puts it in docs/protocol.md. The table comes
// from test/support/referenceCoverage.ts, which the coverage test checks against the real server.
import { renderCoverageTable, writeDocsCoverageTable } from '../test/support/referenceCoverage';

async function main(): Promise<void> {
  if (!process.argv.includes('--write')) return console.log(await renderCoverageTable());
  await writeDocsCoverageTable();
  console.log('docs/protocol.md: reference coverage table rewritten');
}

void main();
