// Renders media/icon.svg to the 256×256 media/icon.png the manifest names, in the headless Chromium the
// UI tests use (a generator, not a benchmark): `npx tsx bench/renderIcon.ts` after editing the SVG.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { chromiumPath } from '../test/support/harness/paths';
import { repoRoot } from '../test/support/paths';

const size = 256;

async function main(): Promise<void> {
  const svg = readFileSync(join(repoRoot, 'media', 'icon.svg'), 'utf8');
  const browser = await chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox'] });
  try {
    const page = await browser.newPage({ viewport: { width: size, height: size } });
    await page.setContent(
      `<style>html,body{margin:0;background:transparent}svg{display:block;width:${size}px;height:${size}px}</style>${svg}`,
    );
    await page.locator('svg').screenshot({ path: join(repoRoot, 'media', 'icon.png'), omitBackground: true });
  } finally {
    await browser.close();
  }
  console.log(`media/icon.png: ${size}×${size} from media/icon.svg`);
}

void main();
