// A jsdom page for the webview's component tests. The globals exist only while a suite that asks for
// them runs (other suites load SDKs that would take `window` for a browser), so the webview modules are
// imported inside `before`, after the page is there.
import { JSDOM } from 'jsdom';
import type { App as AppType } from '../../../webview/App';
import type { Page as PageType } from './page';

/** jsdom has no layout, so nothing resizes: the list places its rows by their estimated heights. */
class NoResizeObserver {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
}

export function useDom(): void {
  const added: string[] = [];
  let dom: JSDOM | undefined;
  before(() => {
    dom = new JSDOM('<!DOCTYPE html><html><body><div id="root"></div></body></html>', {
      url: 'http://127.0.0.1/',
      pretendToBeVisual: true,
    });
    // jsdom has no innerText (it needs layout); the select elements read their options' labels with it.
    Object.defineProperty(dom.window.HTMLElement.prototype, 'innerText', {
      get(this: HTMLElement) {
        return this.textContent ?? '';
      },
      configurable: true,
    });
    // Nor form-associated elements: the pickers report their value to a form that is not there.
    const internals = (dom.window as unknown as { ElementInternals: { prototype: Record<string, unknown> } })
      .ElementInternals.prototype;
    internals.setFormValue ??= () => {};
    internals.setValidity ??= () => {};
    const window = dom.window as unknown as Record<string, unknown>;
    const globals: Record<string, unknown> = {
      window,
      ResizeObserver: NoResizeObserver,
      IS_REACT_ACT_ENVIRONMENT: true,
    };
    for (const key of Object.getOwnPropertyNames(window)) {
      if (!(key in globalThis) && !key.startsWith('_')) globals[key] = window[key];
    }
    for (const [key, value] of Object.entries(globals)) {
      if (key in globalThis) continue;
      Object.defineProperty(globalThis, key, { value, configurable: true, writable: true });
      added.push(key);
    }
  });
  after(async () => {
    // Let the list's and React's last timers run while the page still exists, then close it.
    await new Promise((resolve) => setTimeout(resolve, 100));
    dom?.window.close();
    for (const key of added.splice(0)) delete (globalThis as Record<string, unknown>)[key];
  });
}

/**
 * Loads a module once the page exists (React DOM decides at load time whether it runs in a browser).
 * A plain require: the mocha runner's TypeScript hook covers require, not import().
 */
export function afterDom<T>(path: string): T {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(require.resolve(path, { paths: [__dirname] })) as T;
}

/** The page (`useDom`) with the test host page and the webview's App, loaded once the page exists. */
export function useAppDom(): { Page: typeof PageType; App: typeof AppType } {
  useDom();
  const loaded = {} as { Page: typeof PageType; App: typeof AppType };
  before(() => {
    loaded.Page = afterDom<{ Page: typeof PageType }>('./page').Page;
    loaded.App = afterDom<{ App: typeof AppType }>('../../../webview/App').App;
  });
  return loaded;
}
