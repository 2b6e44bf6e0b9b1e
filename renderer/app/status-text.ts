/**
 * The status bar's text, from plain values. Pure (no DOM); unit-tested. The time shown is the
 * simulated time of the frame on screen, the same value the plots put at their right edge.
 */
import { contactKindName } from '../../sim/dynamics/plain-world';
import { CONTACT_INFO_STRIDE } from '../../sim/dynamics/frame-layout';
import { DEFAULT_UNITS, formatQuantity, type DisplayUnits } from './units';

/** [m/s] Speed resolution in the status bar (1 cm/s). */
const STATUS_SPEED_RESOLUTION = 0.01;

/** "13 (side 8, base 4, edge 1)": count per algorithm case, body–body contacts as "body". */
export function contactSummary(info: Int32Array): string {
  const n = Math.floor(info.length / CONTACT_INFO_STRIDE);
  if (n === 0) return '0';
  const counts = new Map<string, number>();
  for (let k = 0; k < n; k++) {
    const name = contactKindName(info[CONTACT_INFO_STRIDE * k]);
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return `${n} (${[...counts].map(([name, c]) => `${name} ${c}`).join(', ')})`;
}

export interface StatusInput {
  frame: { time: number; step: number; realtimeFactor: number; speed: number; contactInfo: Int32Array } | null;
  fps: number;
  paused: boolean;
  timeScale: number;
  host: string;
  softwareGL: boolean;
  terrainStride: number;
  workerError: string | null;
  selection: string | null;
  /** Display units of the speed (default m). */
  units?: DisplayUnits;
  /** The world is stopped on a fault at this step: the status says so instead of "running · rtf". */
  fault?: { step: number } | null;
}

export function statusText(s: StatusInput): string {
  const f = s.frame;
  const parts = [
    f ? `t ${f.time.toFixed(2)} s` : 't –',
    f ? `step ${f.step}` : 'step –',
    s.fault ? 'rtf –' : f ? `rtf ${f.realtimeFactor.toFixed(2)}×` : 'rtf –',
    f ? `speed ${formatQuantity(s.units ?? DEFAULT_UNITS, 'speed', f.speed, STATUS_SPEED_RESOLUTION)}` : 'speed –',
    f ? `contacts ${contactSummary(f.contactInfo)}` : 'contacts –',
    `${s.fps.toFixed(0)} fps`,
    s.fault ? `FAULT at step ${s.fault.step}: stopped` : s.paused ? 'PAUSED' : s.timeScale === 1 ? 'running' : `running ×${s.timeScale}`,
    `host ${s.host}`,
  ];
  if (s.softwareGL) parts.push('software GL');
  if (s.terrainStride > 1) parts.push(`terrain drawn at stride ${s.terrainStride}`);
  if (s.selection) parts.push(`selected ${s.selection}`);
  if (s.workerError) parts.push(`worker: ${s.workerError}`);
  return parts.join('  │  ');
}
