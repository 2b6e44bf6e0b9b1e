/**
 * The timeline's plain logic (no pixi, unit-tested): steps ↔ pixels and marker colours.
 */
/** [px] Space left and right of the bar. */
export const TIMELINE_PAD_PX = 10;

/** Marker colours by event kind (other kinds: grey). */
export const MARKER_COLORS: Record<string, number> = {
  'lift-off': 0xff9f1a,
  'touch-down': 0x33d94d,
  collision: 0x1af2f2,
  fault: 0xff4d40,
};

export function markerColor(kind: string): number {
  return MARKER_COLORS[kind] ?? 0x9aa4b2;
}

/** Steps first..last over a bar of `width` px (with TIMELINE_PAD_PX each side). */
export class TimelineScale {
  constructor(
    readonly first: number,
    readonly last: number,
    readonly width: number,
  ) {}

  private get span(): number {
    return Math.max(1, this.last - this.first);
  }

  private get inner(): number {
    return Math.max(1, this.width - 2 * TIMELINE_PAD_PX);
  }

  x(step: number): number {
    const s = Math.max(this.first, Math.min(this.last, step));
    return TIMELINE_PAD_PX + ((s - this.first) / this.span) * this.inner;
  }

  /** The step under pixel x (clamped to the range, rounded to the nearest step). */
  step(x: number): number {
    const f = (x - TIMELINE_PAD_PX) / this.inner;
    return Math.max(this.first, Math.min(this.last, Math.round(this.first + f * this.span)));
  }
}

