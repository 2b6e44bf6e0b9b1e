/**
 * Plain helpers of the recording panel (no DOM, unit-tested): labels, file names, joining chunks.
 */
import type { RecordingStatus } from '../../sim/app/protocol';

/** "12.3 s · 1.2 MiB" */
export function recordingLabel(s: Pick<RecordingStatus, 'simSeconds' | 'bytes'>): string {
  const b = s.bytes;
  const size = b >= 1 << 20 ? `${(b / (1 << 20)).toFixed(1)} MiB` : `${Math.round(b / 1024)} KiB`;
  return `${s.simSeconds.toFixed(1)} s · ${size}`;
}

/** A file name for a new recording: scenario name, date and time, .mcap. */
export function suggestedRecordingName(scenario: string | null, now = new Date()): string {
  const base = (scenario ?? 'run').replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '') || 'run';
  const stamp = now.toISOString().slice(0, 19).replace(/[:T]/g, '-');
  return `${base}-${stamp}.mcap`;
}

export function joinParts(parts: readonly Uint8Array[]): Uint8Array {
  let n = 0;
  for (const p of parts) n += p.length;
  const out = new Uint8Array(n);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

