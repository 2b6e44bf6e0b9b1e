/**
 * Issue #28, "a killed CLI recording is lost": what is on disk while a recording runs must be a
 * readable prefix holding every step but the last 2 s of simulated time, in both encoder modes
 * (the CLI's encoder thread, and this thread). The file is read from disk at seeded random
 * steps, as a process killed at that moment would leave it (FileSink fdatasyncs every write).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createDefaultService } from '../../../sim/app/default-service';
import { FileSink } from '../../../sim/node/record-file';
import { readScenarioFiles } from '../../../sim/node/cli';
import { nodeEncoderThread } from '../../../sim/node/record-thread';
import { loadCodecs } from '../../../sim/record/codecs';
import { bytesSource } from '../../../sim/record/io';
import { RecordingReader } from '../../../sim/record/reader';
import { RECORDING_MAX_LOSS_SECONDS } from '../../../sim/app/record-session';
import { Rng } from '../../../sim/math/random';

const SCENARIO = resolve(__dirname, '../../../assets/scenarios/default.json');
const dir = mkdtempSync(join(tmpdir(), 'tw-crash-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a recording on disk while it runs (issue #28)', () => {
  for (const mode of ['encoder thread', 'this thread'] as const) {
    it(`holds all but the last ${RECORDING_MAX_LOSS_SECONDS} s of simulated time at any moment (${mode})`, async () => {
      expect(RECORDING_MAX_LOSS_SECONDS).toBeLessThanOrEqual(2);
      const service = createDefaultService(mode === 'encoder thread' ? { recordThread: nodeEncoderThread } : {});
      const codecs = await loadCodecs();
      const path = join(dir, `${mode.replace(' ', '-')}.mcap`);
      try {
        await service.load(readScenarioFiles(SCENARIO));
        const dt = service.getWorld()!.dt;
        const sink = await FileSink.create(path);
        await service.startRecordingTo(sink, { scenarioPath: SCENARIO });
        const rng = new Rng(28);
        const total = Math.round(9 / dt);
        // a few moments to "kill" at, spread over the run, never before 3 s
        const checks = new Set(Array.from({ length: 5 }, () => rng.int(Math.round(3 / dt), total)));
        let checked = 0;
        for (let s = 1; s <= total; s++) {
          await service.step(1);
          if (!checks.has(s)) continue;
          const onDisk = new Uint8Array(readFileSync(path));
          const status = await service.recordingStatus();
          expect(status.bytes, 'bytes reported are bytes on disk').toBeLessThanOrEqual(onDisk.length);
          const r = await RecordingReader.open(bytesSource(onDisk), { codecs });
          const lost = (s - r.info.lastStep) * dt;
          expect(lost, `at step ${s}: the file ends at step ${r.info.lastStep}`).toBeLessThanOrEqual(RECORDING_MAX_LOSS_SECONDS);
          expect(status.savedStep).toBeLessThanOrEqual(r.info.lastStep);
          expect((s - status.savedStep) * dt).toBeLessThanOrEqual(RECORDING_MAX_LOSS_SECONDS);
          checked++;
        }
        expect(checked).toBe(checks.size);
        const end = await service.stopRecording();
        expect(end.bytes).toBe(readFileSync(path).length);
        expect(sink.bytesWritten).toBe(end.bytes);
      } finally {
        service.dispose();
      }
    }, 120_000);
  }
});
