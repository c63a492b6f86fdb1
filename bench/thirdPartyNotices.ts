// Prints THIRD-PARTY-NOTICES.md as the built bundles call for it, or with --write rewrites the file (a
// generator, not a benchmark; build first). The list comes from esbuild's metafiles in dist/.
import { renderNotices, writeNotices } from '../test/support/thirdPartyNotices';

async function main(): Promise<void> {
  if (!process.argv.includes('--write')) return void process.stdout.write(await renderNotices());
  await writeNotices();
  console.log('THIRD-PARTY-NOTICES.md rewritten');
}

void main();
