/**
 * renderer/load-progress.ts with a minimal stand-in DOM (the unit tests run in Node): a small
 * terrain loads without a question; a large one shows its estimate first, Cancel keeps the world,
 * Load goes ahead and turns the button into Stop, which calls onStop.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLoadCostUi, type UiElement } from '../../../renderer/load-progress';
import { encodeGrayPng } from '../../../sim/terrain/png-encode';

class FakeElement implements UiElement<FakeElement> {
  children: FakeElement[] = [];
  parent: FakeElement | null = null;
  hidden = false;
  textContent: string | null = '';
  id = '';
  type = '';
  style = { marginTop: '', marginLeft: '', fontSize: '' };
  private listeners: Record<string, (() => void)[]> = {};
  get isConnected(): boolean {
    return this.parent !== null;
  }
  append(...nodes: FakeElement[]): void {
    for (const e of nodes) {
      e.parent = this;
      this.children.push(e);
    }
  }
  remove(): void {
    if (this.parent) this.parent.children = this.parent.children.filter((c) => c !== this);
    this.parent = null;
  }
  addEventListener(type: string, fn: () => void): void {
    (this.listeners[type] ??= []).push(fn);
  }
  click(): void {
    for (const fn of this.listeners.click ?? []) fn();
  }
  find(id: string): FakeElement | undefined {
    for (const c of this.children) {
      if (c.id === id) return c;
      const f = c.find(id);
      if (f) return f;
    }
    return undefined;
  }
}

const g = globalThis as { document?: unknown };
beforeEach(() => {
  g.document = { createElement: () => new FakeElement() };
});
afterEach(() => {
  delete g.document;
});

const side = { image: 'big.png', format: 'png', metersPerPixel: 1, heightRange: [0, 1] };

/** A PNG header that claims n × n pixels (only the header is read by the estimate). */
function header(n: number): Uint8Array {
  const head = encodeGrayPng(2, 2, 16, [0, 0, 0, 0]).slice(0, 33);
  new DataView(head.buffer).setUint32(16, n);
  new DataView(head.buffer).setUint32(20, n);
  return head;
}

describe('load cost UI', () => {
  it('a small terrain goes ahead without a question', async () => {
    const box = new FakeElement();
    const ui = createLoadCostUi(box, () => undefined);
    await expect(ui.confirm(side, header(257))).resolves.toBe(true);
    expect(box.find('load-cost')).toBeUndefined();
  });

  it('a 16385² terrain shows its cost; Cancel keeps the running world', async () => {
    const box = new FakeElement();
    const ui = createLoadCostUi(box, () => undefined);
    const answer = ui.confirm(side, header(16385));
    const line = box.find('load-cost');
    expect(line?.children[0].textContent).toMatch(/^Large terrain — 16385 × 16385 vertices: about \d+\.\d GB of memory and \d+ s\.$/);
    box.find('load-cost-cancel')?.click();
    await expect(answer).resolves.toBe(false);
  });

  it('Load goes ahead; during the load the button is Stop and calls onStop; clear removes the line', async () => {
    const box = new FakeElement();
    let stopped = 0;
    const ui = createLoadCostUi(box, () => stopped++);
    const answer = ui.confirm(side, header(16385));
    box.find('load-cost-go')?.click();
    await expect(answer).resolves.toBe(true);
    expect(box.find('load-cost')?.children[0].textContent).toMatch(/^Loading — 16385 × 16385/);
    expect(box.find('load-cost-cancel')?.textContent).toBe('Stop');
    box.find('load-cost-cancel')?.click();
    expect(stopped).toBe(1);
    ui.clear();
    expect(box.find('load-cost')).toBeUndefined();
  });
});
