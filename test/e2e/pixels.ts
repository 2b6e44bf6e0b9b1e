/**
 * Pixel checks on screenshots, decoded inside the page (createImageBitmap + a 2D canvas) so the
 * tests need no PNG library. Screenshots read what the compositor shows, so the WebGL canvas does
 * not need preserveDrawingBuffer.
 */
import type { Page } from '@playwright/test';

export interface PixelStats {
  width: number;
  height: number;
  /** Distinct colours after dropping the 2 low bits per channel (so dithering noise does not count). */
  distinctColors: number;
  /** Fraction of pixels differing from `other` by more than 8/255 in some channel (0 without `other`). */
  changedFraction: number;
}

export async function pixelStats(page: Page, png: Buffer, other?: Buffer): Promise<PixelStats> {
  return page.evaluate(
    async ([a, b]) => {
      const decode = async (b64: string): Promise<ImageData> => {
        const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
        const bmp = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
        const cv = new OffscreenCanvas(bmp.width, bmp.height);
        const ctx = cv.getContext('2d');
        if (!ctx) throw new Error('no 2d context');
        ctx.drawImage(bmp, 0, 0);
        return ctx.getImageData(0, 0, bmp.width, bmp.height);
      };
      const A = await decode(a);
      const colors = new Set<number>();
      for (let k = 0; k < A.data.length; k += 4) colors.add(((A.data[k] >> 2) << 12) | ((A.data[k + 1] >> 2) << 6) | (A.data[k + 2] >> 2));
      let changed = 0;
      if (b) {
        const B = await decode(b);
        if (B.width !== A.width || B.height !== A.height) throw new Error('screenshots differ in size');
        for (let k = 0; k < A.data.length; k += 4) {
          if (Math.abs(A.data[k] - B.data[k]) > 8 || Math.abs(A.data[k + 1] - B.data[k + 1]) > 8 || Math.abs(A.data[k + 2] - B.data[k + 2]) > 8) changed++;
        }
      }
      return { width: A.width, height: A.height, distinctColors: colors.size, changedFraction: changed / (A.width * A.height) };
    },
    [png.toString('base64'), other ? other.toString('base64') : ''] as const,
  );
}
