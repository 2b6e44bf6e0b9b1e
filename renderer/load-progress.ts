/**
 * What a large terrain load will cost, before it starts, and a way out (issue #18: a 522 KB flat
 * 16385² PNG is a legal file that takes 26 s and 5.9 GB).
 *
 * Before the files go to the worker, the renderer estimates the load from the terrain's header
 * (sim/terrain/load-estimate.ts, no decoding). Above TERRAIN_LARGE_LOAD_BYTES the progress box
 * shows the estimate with "Load" and "Cancel": Cancel leaves the running world untouched.
 * While a large load runs, the box keeps the estimate and a "Stop" button. The worker decodes
 * synchronously (it cannot hear a message until the decode returns), so stopping means ending the
 * worker: `onStop` (main.ts) terminates it and restarts the app with the default world.
 *
 * The elements are created here inside #progress, so index.html and style.css stay as they are.
 */
import { describeTerrainLoadEstimate, estimateTerrainLoad, type TerrainLoadEstimate } from '../sim/terrain/load-estimate';

/**
 * The few DOM features used, as structural types: main.ts passes real elements; the unit tests
 * (Node, no DOM) pass stand-ins; and sim's Node typecheck, which includes the tests, needs no DOM lib.
 */
export interface UiElement<E = unknown> {
  hidden: boolean;
  textContent: string | null;
  id: string;
  style: { marginTop: string; marginLeft: string; fontSize: string };
  readonly isConnected: boolean;
  append(...nodes: E[]): void;
  remove(): void;
  addEventListener(type: 'click', listener: () => void): void;
}
export interface UiDocument<E> {
  createElement(tag: 'div' | 'span' | 'button'): E;
}

export interface LoadCostUi {
  /** Ask before a large load; resolves true to go ahead. Small loads resolve true at once. */
  confirm(terrainSidecar: unknown, terrainData: Uint8Array): Promise<boolean>;
  /** Remove the estimate line and buttons (the load finished or failed). */
  clear(): void;
}

function button<E extends UiElement<E>>(doc: UiDocument<E>, label: string): E {
  const b = doc.createElement('button');
  (b as unknown as { type: string }).type = 'button';
  b.textContent = label;
  b.style.marginLeft = '8px';
  return b;
}

/**
 * `box` is #progress (shown by main.ts while loading). `onStop` ends a large load in progress.
 */
export function createLoadCostUi<E extends UiElement<E>>(
  box: E,
  onStop: () => void,
  doc: UiDocument<E> = (globalThis as unknown as { document: UiDocument<E> }).document,
): LoadCostUi {
  const line = doc.createElement('div');
  line.id = 'load-cost';
  line.style.marginTop = '8px';
  line.style.fontSize = '12px';
  const text = doc.createElement('span');
  const go = button(doc, 'Load');
  go.id = 'load-cost-go';
  const cancel = button(doc, 'Cancel');
  cancel.id = 'load-cost-cancel';
  line.append(text, go, cancel);

  let pending: ((ok: boolean) => void) | null = null;
  const settle = (ok: boolean): void => {
    const p = pending;
    pending = null;
    p?.(ok);
  };

  function show(e: TerrainLoadEstimate, asking: boolean): void {
    text.textContent = `${asking ? 'Large terrain' : 'Loading'} — ${describeTerrainLoadEstimate(e)}.`;
    go.hidden = !asking;
    cancel.textContent = asking ? 'Cancel' : 'Stop';
    if (!line.isConnected) box.append(line);
    box.hidden = false;
  }

  go.addEventListener('click', () => settle(true));
  cancel.addEventListener('click', () => {
    if (pending) settle(false);
    else onStop();
  });

  return {
    confirm(terrainSidecar, terrainData) {
      const e = estimateTerrainLoad(terrainSidecar, terrainData);
      if (e === null || !e.large) return Promise.resolve(true);
      show(e, true);
      return new Promise<boolean>((resolve) => {
        pending = resolve;
      }).then((ok) => {
        if (ok) show(e, false);
        return ok;
      });
    },
    clear() {
      settle(false);
      line.remove();
    },
  };
}
