/** Polls `check` every 20 ms until it holds; fails after `ms`. The one poll every suite uses. */
export async function until(check: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for a condition`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
