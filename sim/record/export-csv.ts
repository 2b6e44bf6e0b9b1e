/**
 * Per-wheel contact data of a recording as CSV (one row per wheel per recorded step):
 *
 *   step,time,body,count,max_depth_m,normal_force_n,slip
 *
 * The numbers are those of the `/terrawheel/wheels` series (foxglove.ts `wheelStatsInto`), but
 * from every step's frame rather than the downsampled Foxglove channel. Produced in pieces
 * (`wheelCsvChunks`) so a long recording never sits in memory as one string.
 */
import { wheelRadius, wheelStatsInto, makeWheelStats } from './foxglove';
import type { RecordingReader } from './reader';

/** The header line of the per-wheel CSV export (one row per wheel per step). */
export const WHEEL_CSV_HEADER = 'step,time,body,count,max_depth_m,normal_force_n,slip';

/** Resolves wheel names or body indices to body indices (default: the recording's wheels). */
export function resolveWheels(reader: RecordingReader, wheels?: readonly (number | string)[]): number[] {
  const meta = reader.info.metadata;
  if (wheels === undefined) return [...meta.wheels];
  return wheels.map((w, i) => {
    if (typeof w === 'number') {
      if (!Number.isInteger(w) || w < 0 || w >= meta.bodies.length) throw new Error(`wheels[${i}] = ${w} is not a body index (0..${meta.bodies.length - 1})`);
      return w;
    }
    const k = meta.bodies.findIndex((b) => b.name === w);
    if (k < 0) throw new Error(`wheels[${i}]: no body named "${w}" (bodies: ${meta.bodies.map((b) => b.name).join(', ')})`);
    return k;
  });
}

/** Options of the CSV export: which wheels and which steps. */
export interface WheelCsvOptions {
  /** Wheel body indices or names; default the recording's wheels. */
  wheels?: readonly (number | string)[];
  from?: number;
  to?: number;
  /** Rows per yielded piece. Default 4096. */
  rowsPerChunk?: number;
}

/** CSV text in pieces (the first piece starts with the header line). */
export async function* wheelCsvChunks(reader: RecordingReader, options: WheelCsvOptions = {}): AsyncGenerator<string> {
  const wheels = resolveWheels(reader, options.wheels);
  const meta = reader.info.metadata;
  const names = wheels.map((w) => csvField(meta.bodies[w].name));
  const radii = wheels.map((w) => wheelRadius(meta.bodies[w].shape));
  const stats = makeWheelStats();
  const rowsPer = options.rowsPerChunk ?? 4096;
  let rows: string[] = [WHEEL_CSV_HEADER];
  for await (const f of reader.framesIn(options.from ?? reader.info.firstStep, options.to ?? reader.info.lastStep)) {
    for (let k = 0; k < wheels.length; k++) {
      const s = wheelStatsInto(stats, f, wheels[k], radii[k], meta.dt);
      rows.push(`${f.step},${f.time},${names[k]},${s.count},${s.maxDepth},${s.normalForce},${s.slip}`);
    }
    if (rows.length >= rowsPer) {
      yield rows.join('\n') + '\n';
      rows = [];
    }
  }
  if (rows.length > 0) yield rows.join('\n') + '\n';
}

/** The whole CSV as one string (short recordings, tests). */
export async function exportWheelCsv(reader: RecordingReader, options: WheelCsvOptions = {}): Promise<string> {
  let s = '';
  for await (const piece of wheelCsvChunks(reader, options)) s += piece;
  return s;
}

function csvField(s: string): string {
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}
