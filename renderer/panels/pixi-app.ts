/**
 * The pixi Application every 2D panel draws with: sized to its canvas, rendered on demand (no
 * ticker), WebGL with a canvas fallback. Resolves null when no pixi renderer works here (the
 * panel then shows a note instead).
 */
import { Application } from 'pixi.js';

export async function createPanelApp(canvas: HTMLCanvasElement, background: number): Promise<Application | null> {
  const app = new Application();
  try {
    await app.init({
      canvas,
      width: Math.max(1, canvas.clientWidth),
      height: Math.max(1, canvas.clientHeight),
      background,
      antialias: false,
      autoStart: false,
      resolution: 1,
      preference: ['webgl', 'canvas'],
      sharedTicker: false,
    });
  } catch {
    return null;
  }
  return app;
}
