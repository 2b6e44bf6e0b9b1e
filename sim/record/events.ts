/**
 * Timeline markers from a recording: wheel lift-off (a wheel's contact count drops from > 0 to
 * 0), touch-down (back above 0), body–body collisions beginning (a pair of bodies has a
 * body-pair contact this step and had none the step before), and the events the run wrote on
 * `/terrawheel/event` (faults, notes).
 *
 * `TimelineEventDetector` is incremental: feed it frames in step order (a replay, or the live
 * world in the worker) and it reports the markers of each new frame.
 */
import { CONTACT_INFO_STRIDE, CONTACT_KIND_BODY_PAIR } from '../dynamics/frame-layout';
import type { FrameData } from './format';
import type { RecordingReader } from './reader';

/**
 * The kind of a timeline marker: wheel lift-off or touch-down, a body–body collision beginning, a
 * fault, or another recorded event's kind.
 */
export type TimelineEventKind = 'lift-off' | 'touch-down' | 'collision' | 'fault' | string;

/** A marker on the replay timeline at one step. */
export interface TimelineEvent {
  step: number;
  kind: TimelineEventKind;
  /** The wheel (lift-off, touch-down), the first body of a collision, or the event's body. */
  body: number | null;
  /** The other body of a collision. */
  other: number | null;
  message: string;
}

/**
 * Finds timeline markers incrementally: feed it frames in step order and it reports each new
 * frame's markers.
 */
export class TimelineEventDetector {
  private readonly wheels: readonly number[];
  private readonly names: readonly string[];
  private wheelCounts: Int32Array;
  private counts: Int32Array;
  private pairs = new Set<number>();
  private next = new Set<number>();
  private started = false;
  private lastStep = -1;

  /** `names[i]` names body i in messages. */
  constructor(wheels: readonly number[], names: readonly string[]) {
    this.wheels = wheels;
    this.names = names;
    this.wheelCounts = new Int32Array(wheels.length);
    this.counts = new Int32Array(wheels.length);
  }

  private name(b: number): string {
    return this.names[b] ?? `body ${b}`;
  }

  /**
   * Markers for `frame` (appended to `out`). A gap in steps (a seek) restarts the comparison:
   * the first frame after it sets the state and reports nothing.
   */
  push(frame: FrameData, out: TimelineEvent[]): void {
    const contiguous = this.started && frame.step === this.lastStep + 1;
    const counts = this.counts;
    counts.fill(0);
    this.next.clear();
    for (let k = 0; k < frame.contactCount; k++) {
      const o = k * CONTACT_INFO_STRIDE;
      const a = frame.contactInfo[o + 1];
      const b = frame.contactInfo[o + 2];
      for (let w = 0; w < this.wheels.length; w++) if (this.wheels[w] === a || this.wheels[w] === b) counts[w]++;
      if (frame.contactInfo[o] === CONTACT_KIND_BODY_PAIR && b >= 0) this.next.add(Math.min(a, b) * 65536 + Math.max(a, b));
    }
    if (contiguous) {
      for (let w = 0; w < this.wheels.length; w++) {
        const body = this.wheels[w];
        if (this.wheelCounts[w] > 0 && counts[w] === 0) out.push({ step: frame.step, kind: 'lift-off', body, other: null, message: `${this.name(body)} lifted off` });
        else if (this.wheelCounts[w] === 0 && counts[w] > 0) out.push({ step: frame.step, kind: 'touch-down', body, other: null, message: `${this.name(body)} touched down` });
      }
      for (const key of this.next) {
        if (this.pairs.has(key)) continue;
        const a = Math.floor(key / 65536);
        const b = key % 65536;
        out.push({ step: frame.step, kind: 'collision', body: a, other: b, message: `${this.name(a)} hit ${this.name(b)}` });
      }
    }
    this.counts = this.wheelCounts;
    this.wheelCounts = counts;
    const t = this.pairs;
    this.pairs = this.next;
    this.next = t;
    this.started = true;
    this.lastStep = frame.step;
  }
}

/** All markers of a recording (or of from..to), frames first then recorded events, by step. */
export async function scanTimelineEvents(reader: RecordingReader, from = reader.info.firstStep, to = reader.info.lastStep): Promise<TimelineEvent[]> {
  const meta = reader.info.metadata;
  const detector = new TimelineEventDetector(meta.wheels, meta.bodies.map((b) => b.name));
  const out: TimelineEvent[] = [];
  for await (const f of reader.framesIn(from, to)) detector.push(f, out);
  for (const e of await reader.events(from, to)) out.push({ step: e.step, kind: e.kind, body: e.body ?? null, other: null, message: e.message });
  out.sort((a, b) => a.step - b.step);
  return out;
}
