/**
 * Panel refresh in rotation (issue #30 item 6, frame script time). The panels redraw on their own
 * period (PANEL_PERIOD_MS in main.ts), but on software GL the render loop runs at 2–5 frames per
 * second, so every drawn frame carried every panel: the sidebar (inspector DOM, entities, manifold
 * view), the uPlot panes and the pixi strip (minimap, run timeline) together were most of the
 * main thread's script per frame. Each panel tick now refreshes one group, in turn; the status bar
 * and the warnings line (cheap, and what a person reads while driving) still refresh every tick.
 * A round is one refresh of every group: the test hook's panelTicks counts rounds, so a test that
 * waits for two panel ticks still sees every panel redrawn twice.
 */

/** The groups, refreshed in this order. */
export const PANEL_GROUPS = ['sidebar', 'plots', 'strip'] as const;
export type PanelGroup = (typeof PANEL_GROUPS)[number];

export class PanelRotation {
  private k = 0;

  /** The group this tick refreshes, and whether it completes a round. */
  next(): { group: PanelGroup; roundDone: boolean } {
    const group = PANEL_GROUPS[this.k];
    this.k = (this.k + 1) % PANEL_GROUPS.length;
    return { group, roundDone: this.k === 0 };
  }
}
