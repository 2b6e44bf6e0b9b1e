/**
 * The recording GUI's plain logic: the timeline's step ↔ pixel mapping (round trip at every
 * step of a short range, clamping, padding), marker colours, the record button's label, the
 * suggested file name, joining chunks.
 */
import { describe, expect, it } from 'vitest';
import { markerColor, MARKER_COLORS, TimelineScale, TIMELINE_PAD_PX } from '../../../renderer/panels/timeline-scale';
import { joinParts, recordingLabel, suggestedRecordingName } from '../../../renderer/app/recording-format';

describe('timeline scale', () => {
  it('maps the first and last step to the padded ends and back', () => {
    const s = new TimelineScale(100, 1100, 520);
    expect(s.x(100)).toBe(TIMELINE_PAD_PX);
    expect(s.x(1100)).toBe(520 - TIMELINE_PAD_PX);
    expect(s.x(600)).toBe(260);
    expect(s.step(260)).toBe(600);
    expect(s.step(-50)).toBe(100);
    expect(s.step(10_000)).toBe(1100);
    expect(s.x(50)).toBe(TIMELINE_PAD_PX);
    expect(s.x(5000)).toBe(520 - TIMELINE_PAD_PX);
  });
  it('round-trips every step when there are more pixels than steps', () => {
    const s = new TimelineScale(7, 207, 900);
    for (let k = 7; k <= 207; k++) expect(s.step(s.x(k))).toBe(k);
  });
  it('an empty range does not divide by zero', () => {
    const s = new TimelineScale(5, 5, 100);
    expect(s.x(5)).toBe(TIMELINE_PAD_PX);
    expect(s.step(50)).toBe(5);
  });
  it('colours markers by kind, grey for others', () => {
    expect(markerColor('lift-off')).toBe(MARKER_COLORS['lift-off']);
    expect(markerColor('fault')).toBe(0xff4d40);
    expect(markerColor('note')).toBe(0x9aa4b2);
  });
});

describe('recording helpers', () => {
  it('labels elapsed simulated time and size', () => {
    expect(recordingLabel({ simSeconds: 12.34, bytes: 3 * 1024 * 1024 + 200_000 })).toBe('12.3 s · 3.2 MiB');
    expect(recordingLabel({ simSeconds: 0, bytes: 5000 })).toBe('0.0 s · 5 KiB');
  });
  it('suggests a safe .mcap name from the scenario and the time', () => {
    const at = new Date('2026-11-24T13:05:09.000Z');
    expect(suggestedRecordingName('Rolling hills', at)).toBe('Rolling-hills-2026-11-24-13-05-09.mcap');
    expect(suggestedRecordingName('../../etc/passwd', at)).toBe('etc-passwd-2026-11-24-13-05-09.mcap');
    expect(suggestedRecordingName(null, at)).toBe('run-2026-11-24-13-05-09.mcap');
    expect(suggestedRecordingName('***', at)).toBe('run-2026-11-24-13-05-09.mcap');
  });
  it('joins chunks in order', () => {
    expect([...joinParts([new Uint8Array([1, 2]), new Uint8Array(0), new Uint8Array([3])])]).toEqual([1, 2, 3]);
  });
});
