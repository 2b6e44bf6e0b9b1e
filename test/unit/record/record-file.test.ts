/**
 * The Node file sink and source (sim/node/record-file.ts): a recording written to disk reads
 * back; the same file truncated on disk (as after a killed process) replays its prefix.
 */
import { mkdtempSync, rmSync, truncateSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { exportWheelCsvFile, FileSink, FileSource, openRecordingFile } from '../../../sim/node/record-file';
import { readFileSync } from 'node:fs';
import { RecordingReader } from '../../../sim/record/reader';
import { DEFAULT_KEYFRAME_INTERVAL, RecordingWriter } from '../../../sim/record/writer';
import { Rng } from '../../../sim/math/random';
import { DT, FIXTURE_BODIES, frameMismatch } from './fixture';
import { randomFrame } from './synthetic';
import { loadCodecs } from '../../../sim/record/codecs';

const dir = mkdtempSync(join(tmpdir(), 'terrawheel-rec-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('recording files', () => {
  it('writes through FileSink (fsync per write) and reads through FileSource; a truncated file replays its prefix', async () => {
    const codecs = await loadCodecs();
    const path = join(dir, 'run.mcap');
    const sink = await FileSink.create(path);
    const w = await RecordingWriter.create(sink, { scenario: { name: 'file' }, buildId: 'b', dt: DT, bodies: FIXTURE_BODIES, wheels: [1, 2] }, { codecs, chunkBytes: 8192, frameEncoding: { f32: false, shuffle: true } });
    const rng = new Rng(3);
    const frames = [];
    for (let s = 0; s < 300; s++) {
      if (w.keyframeDue(s)) w.writeKeyframe({ step: s, hash: `h${s}`, bytes: new Uint8Array([s & 255]) });
      const f = randomFrame(rng, s, DT, 5, rng.int(0, 8));
      frames.push(f);
      w.writeFrame(f);
    }
    await w.drain();
    // Chunks reach the file while the run goes, before close().
    expect(statSync(path).size).toBeGreaterThan(w.bytesWritten / 2);
    expect(statSync(path).size).toBe(w.bytesWritten);
    await w.close();

    const src = await FileSource.open(path);
    const r = await RecordingReader.open(src, { codecs });
    expect(r.info.mode).toBe('indexed');
    for (const f of frames) expect(frameMismatch((await r.frameAt(f.step))!, f)).toBeNull();
    await src.close();

    // export-csv to a file: a header and one row per wheel per step.
    const csvPath = join(dir, 'run.csv');
    expect(await exportWheelCsvFile(path, csvPath, { rowsPerChunk: 64 })).toEqual({ rows: 600, cut: null });
    const csv = readFileSync(csvPath, 'utf8').trimEnd().split('\n');
    expect(csv).toHaveLength(601);
    expect(csv[0]).toBe('step,time,body,count,max_depth_m,normal_force_n,slip');
    expect(csv[600].startsWith('299,')).toBe(true);
    const opened = await openRecordingFile(path);
    expect(opened.reader.info.lastStep).toBe(299);
    await opened.close();

    truncateSync(path, Math.floor(statSync(path).size * 0.7));
    const cut = await FileSource.open(path);
    const rc = await RecordingReader.open(cut, { codecs });
    expect(rc.info.notice).toMatch(/^recording ends at step \d+: the file was cut after byte \d+; the last chunk was lost$/);
    expect(rc.info.lastStep).toBeGreaterThan(100);
    for (let s = 0; s <= rc.info.lastStep; s++) expect(frameMismatch((await rc.frameAt(s))!, frames[s])).toBeNull();
    expect((await rc.keyframeAtOrBefore(rc.info.lastStep))?.step).toBe(Math.floor(rc.info.lastStep / DEFAULT_KEYFRAME_INTERVAL) * DEFAULT_KEYFRAME_INTERVAL);
    await cut.close();
  });
});
