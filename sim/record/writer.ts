/**
 * RecordingWriter: a run as one MCAP file, written chunk by chunk while it runs.
 *
 * Built on @mcap/core's McapWriter (chunked, message-indexed, CRC'd chunks, summary and footer
 * at `close()`). A chunk goes to the sink as soon as it holds `chunkBytes` of records or spans
 * `chunkSeconds` of simulated time (whichever comes first), so a killed process loses at most the
 * chunk being filled (≤ chunkSeconds) and the one on its way to disk; the reader replays the
 * prefix of a file without its footer (see reader.ts). After a chunk closed by time, the sink's
 * `wroteThrough(step)` says every record of the steps up to that one is in the bytes written.
 *
 * File layout, in write order:
 *   header (profile "terrawheel") · metadata "terrawheel.recording" · attachment scenario.json ·
 *   chunks of messages on the topics of format.ts · summary · footer
 *
 * The hot-path calls (`writeFrame`, `writeInput`, `writeKeyframe`, `writeEvent`) are synchronous:
 * they encode the message (copying the caller's arrays, which may be reused at once) and queue it;
 * the MCAP writer drains the queue in order. `pendingBytes` says how much is queued; a producer
 * faster than its sink awaits `drain()` now and then. A sink error surfaces on the next call.
 */
import { McapWriter, type IWritable } from '@mcap/core';
import type { InlineTerrainSpec } from '../dynamics/spec';
import { crc32 } from '../terrain/crc32';
import type { RecordingCodecs } from './codecs';
import { encodeDeltaFrame, FrameChanges } from './frame-delta';
import {
  assertLittleEndian,
  checkFrameCounts,
  encodeFrame,
  encodeKeyframe,
  FRAME_ENCODING,
  FRAME_SCHEMA_NAME,
  FrameScratch,
  KEYFRAME_ENCODING,
  KEYFRAME_SCHEMA_NAME,
  MAX_CHUNK_UNCOMPRESSED_BYTES,
  RECORDING_FORMAT_VERSION,
  RECORDING_METADATA_NAME,
  RECORDING_PROFILE,
  SCENARIO_ATTACHMENT_NAME,
  TOPIC,
  type FrameData,
  type FrameEncoding,
  type Topic,
} from './format';
import {
  contactSceneJson,
  EVENT_JSON_SCHEMA,
  frameTransformsJson,
  quotedNames,
  INPUT_JSON_SCHEMA,
  JOINT_INPUT_JSON_SCHEMA,
  makeWheelStats,
  staticScene,
  timeFromNs,
  wheelRadius,
  wheelsMessage,
  WHEELS_JSON_SCHEMA,
  type RecordedBody,
} from './foxglove';
import type { RecordingSink } from './io';
import type { FrameChangeHint } from './capture';
import { FrameTransforms as FrameTransformsSchema, SceneUpdate as SceneUpdateSchema } from '@foxglove/schemas/jsonschema';

/** What a recording is of: written once at the start (metadata + scenario attachment). */
export interface RecordingHeader {
  /** The scenario (its JSON text, or an object that JSON.stringify turns into it). */
  scenario: unknown;
  scenarioName?: string;
  /** Content hashes of the scenario's assets (terrain file, robot files), as the caller computed them. */
  assets?: { name: string; hash: string }[];
  /** Identifies the build that made the recording (determinism holds only within one build). */
  buildId: string;
  /** Set when this recording branches from another: its name/id, the step, the state hash there. */
  parent?: { recording: string; step: number; stateHash?: string };
  /** [s] fixed step of the world. */
  dt: number;
  /** The world's bodies in report order (index = body index of poses and contactInfo). */
  bodies: RecordedBody[];
  /** Body indices of the wheels (per-wheel series, CSV, lift-off events). */
  wheels?: number[];
  /** Terrain for Foxglove's 3D view (subsampled); omit for none. */
  terrain?: InlineTerrainSpec;
  /** Wall-clock creation time (ISO 8601); default now. */
  createdAt?: string;
}

/**
 * Options of `RecordingWriter.create`: codecs, keyframe interval, Foxglove rate, chunk size, frame
 * encoding.
 */
export interface RecordingWriterOptions {
  codecs: RecordingCodecs;
  /** Steps between full-state keyframes (`keyframeDue`). Default 120 (0.5 s at 240 Hz). */
  keyframeInterval?: number;
  /** [Hz] rate of the Foxglove channels (transforms, contacts, wheels); 0 = none. Default 30. */
  foxgloveHz?: number;
  /** Uncompressed bytes per chunk before it is compressed and written. Default 1 MiB. */
  chunkBytes?: number;
  /** [s] Simulated time a chunk spans at most before it is written. Default 1 s. */
  chunkSeconds?: number;
  /** Frame float width, byte shuffle and delta frames (format.ts). Default f32, shuffled, deltas. */
  frameEncoding?: FrameEncoding;
}

/** 0.5 s at 240 Hz: a seek re-simulates at most 119 steps (issue #16: seeks under 200 ms at p95; the 10-minute driven run stays under 200 MB). */
export const DEFAULT_KEYFRAME_INTERVAL = 120;
/** [Hz] Rate of the Foxglove channels (transforms, contact arrows, wheel series). */
export const DEFAULT_FOXGLOVE_HZ = 30;
/**
 * [bytes] An MCAP chunk is written once it holds this much uncompressed (1 MiB), or after
 * DEFAULT_CHUNK_SECONDS of simulated time, whichever comes first.
 */
export const DEFAULT_CHUNK_BYTES = 1 << 20;
/** [s] A chunk is closed after at most this much simulated time (what a killed process loses, plus the chunk in flight). */
export const DEFAULT_CHUNK_SECONDS = 1;
/** Largest `chunkBytes`, and the largest message: half the reader's cap on a chunk's uncompressed size (a chunk may overshoot chunkBytes by one message). */
export const MAX_CHUNK_BYTES = MAX_CHUNK_UNCOMPRESSED_BYTES / 2;

/** Steps a chunk spans at most: `chunkSeconds` of steps of `dt`, at least one. */
export function chunkWindowSteps(dt: number, chunkSeconds: number = DEFAULT_CHUNK_SECONDS): number {
  return Math.max(1, Math.floor(chunkSeconds / dt + 1e-9));
}

/**
 * Frames as written by default: float32, byte-plane shuffled, delta-coded against the last full
 * frame.
 */
export const DEFAULT_FRAME_ENCODING: FrameEncoding = { f32: true, shuffle: true, delta: true };

/** The recording's description as stored in the `terrawheel.recording` metadata record. */
export interface RecordingMetadata {
  formatVersion: number;
  buildId: string;
  createdAt: string;
  scenarioName: string;
  assets: { name: string; hash: string }[];
  parent: { recording: string; step: number; stateHash?: string } | null;
  dt: number;
  stepNs: number;
  keyframeInterval: number;
  foxgloveEvery: number;
  frameEncoding: FrameEncoding;
  bodies: RecordedBody[];
  wheels: number[];
  /** Topic → MCAP channel id (so a reader of a footer-less file needs no channel record). */
  channels: Record<string, number>;
}

/**
 * Serialises the metadata as MCAP's string map, with a CRC-32 of the JSON payload: MCAP metadata
 * records carry no CRC of their own, and a flipped bit in `dt` must not pass as good.
 */
export function metadataToMap(m: RecordingMetadata): Map<string, string> {
  const json = JSON.stringify(m);
  return new Map([
    ['formatVersion', String(m.formatVersion)],
    ['json', json],
    ['crc32', crc32(new TextEncoder().encode(json)).toString(16).padStart(8, '0')],
  ]);
}

/** A drive input as recorded, in effect from `step` on. */
export interface InputRecord {
  step: number;
  throttle: number;
  steer: number;
}

/** A per-joint velocity command as recorded (format 4): the joint's motor target from `step` on. */
export interface JointInputRecord {
  step: number;
  /** The joint's name (as in the world's spec). */
  joint: string;
  /** [rad/s] or [m/s] */
  velocity: number;
}

/** Longest joint name a joint input may carry. */
export const MAX_JOINT_NAME_LENGTH = 255;

/** An event as recorded (a fault, a note), written before its step's frame. */
export interface EventRecord {
  step: number;
  /** 'fault' (solver/collision status), 'note', or any short tag. */
  kind: string;
  message: string;
  /** Body the event concerns, if any. */
  body?: number;
}

const json = new TextEncoder();

/** A queued message; `endsChunk`: the chunk is closed (written) right after it. */
interface QueuedMessage {
  channelId: number;
  sequence: number;
  logTime: bigint;
  publishTime: bigint;
  data: Uint8Array;
  step: number;
  endsChunk: boolean;
}

/**
 * The chunk-size limit handed to McapWriter. McapWriter closes its chunk after a message when the
 * chunk's byte length is `>` its `chunkSize` (a relational comparison, so it reads `valueOf()`
 * at that moment): −1 closes the chunk after the message being added, which is how a chunk is
 * closed by simulated time. Pinned by test/unit/record/crash-safe.test.ts (with byte-sized chunks only, the default scene loses 4 s) (@mcap/core is
 * pinned to an exact version).
 */
class ChunkLimit {
  now: number;
  constructor(readonly bytes: number) {
    this.now = bytes;
  }
  valueOf(): number {
    return this.now;
  }
}

class SinkWritable implements IWritable {
  pos = 0n;
  constructor(private readonly sink: RecordingSink) {}
  async write(buffer: Uint8Array): Promise<void> {
    await this.sink.write(buffer);
    this.pos += BigInt(buffer.length);
  }
  position(): bigint {
    return this.pos;
  }
}

/**
 * Writes a recording: one MCAP file with inputs, keyframes, frames, events and Foxglove channels,
 * appended chunk by chunk (see docs/recordings.md).
 */
export class RecordingWriter {
  readonly metadata: RecordingMetadata;
  private readonly mcap: McapWriter;
  private readonly out: SinkWritable;
  private readonly sink: RecordingSink;
  private readonly channelIds: Record<Topic, number>;
  private readonly sequence = new Map<number, number>();
  private readonly scratch = new FrameScratch();
  /** What changed since the last frame (delta frames, and which bodies Foxglove sees as moving). */
  private readonly changes = new FrameChanges();
  private lastFullFrameStep = -1;
  /** Per body: its pose / its contact block changed since the last Foxglove message (1). */
  private movedSince = new Uint8Array(0);
  private blockMovedSince = new Uint8Array(0);
  /** Some frame since the last Foxglove message had no contact blocks (contacts not in bodyA order). */
  private unblockedSince = false;
  /** Per body: in the last `/terrawheel/tf_resting` / `/terrawheel/contacts_resting` message (1). */
  private restingBodies = new Uint8Array(0);
  private restingBlocks = new Uint8Array(0);
  private readonly wheelScratch = makeWheelStats();
  private readonly radii: number[];
  /** Body names as JSON strings (Foxglove transforms). */
  private readonly names: string[];
  private readonly terrain: InlineTerrainSpec | undefined;
  private readonly queue: QueuedMessage[] = [];
  private readonly chunkLimit: ChunkLimit;
  /** Steps a chunk spans at most, and the first step of the chunk being filled (−1: none yet). */
  private readonly chunkSteps: number;
  private chunkStartStep = -1;
  /** Every record of the steps up to this one is in bytes handed to the sink (−1: none). */
  private wroteThroughStep = -1;
  private queueHead = 0;
  private pump: Promise<void> | null = null;
  private error: unknown = null;
  private closed = false;
  private lastStep = -1;
  private lastFrameStep = -1;
  private lastKeyframeStep = -1;
  private sceneSent = false;
  private throttle = 0;
  private steer = 0;
  /** Bytes encoded but not yet handed to the MCAP writer. */
  pendingBytes = 0;
  framesWritten = 0;
  keyframesWritten = 0;
  inputsWritten = 0;
  eventsWritten = 0;

  private constructor(sink: RecordingSink, out: SinkWritable, mcap: McapWriter, metadata: RecordingMetadata, channelIds: Record<Topic, number>, terrain: InlineTerrainSpec | undefined, chunkLimit: ChunkLimit, chunkSteps: number) {
    this.sink = sink;
    this.chunkLimit = chunkLimit;
    this.chunkSteps = chunkSteps;
    this.out = out;
    this.mcap = mcap;
    this.metadata = metadata;
    this.channelIds = channelIds;
    this.terrain = terrain;
    this.radii = metadata.wheels.map((w) => wheelRadius(metadata.bodies[w].shape));
    this.names = quotedNames(metadata.bodies);
  }

  /** Starts a recording: writes the header, the metadata and the scenario to `sink`. */
  static async create(sink: RecordingSink, header: RecordingHeader, options: RecordingWriterOptions): Promise<RecordingWriter> {
    assertLittleEndian();
    if (!(header.dt > 0) || !Number.isFinite(header.dt)) throw new Error(`header.dt must be a positive number of seconds, got ${header.dt}`);
    if (typeof header.buildId !== 'string') throw new Error('header.buildId must be a string');
    if (!Array.isArray(header.bodies)) throw new Error('header.bodies must be an array of { name, shape }');
    header.bodies.forEach((b, i) => {
      if (typeof b?.name !== 'string' || typeof b.shape !== 'object' || b.shape === null) throw new Error(`header.bodies[${i}] needs a name and a shape`);
    });
    const wheels = header.wheels ?? [];
    wheels.forEach((w, i) => {
      if (!Number.isInteger(w) || w < 0 || w >= header.bodies.length) throw new Error(`header.wheels[${i}] = ${w} is not a body index (0..${header.bodies.length - 1})`);
    });
    if (header.parent !== undefined && (!Number.isInteger(header.parent.step) || header.parent.step < 0)) throw new Error(`header.parent.step must be a non-negative integer, got ${header.parent.step}`);
    const keyframeInterval = options.keyframeInterval ?? DEFAULT_KEYFRAME_INTERVAL;
    if (!Number.isInteger(keyframeInterval) || keyframeInterval < 1) throw new Error(`options.keyframeInterval must be a positive integer, got ${keyframeInterval}`);
    const foxgloveHz = options.foxgloveHz ?? DEFAULT_FOXGLOVE_HZ;
    if (!(foxgloveHz >= 0) || !Number.isFinite(foxgloveHz)) throw new Error(`options.foxgloveHz must be ≥ 0, got ${foxgloveHz}`);
    const chunkBytes = options.chunkBytes ?? DEFAULT_CHUNK_BYTES;
    if (!Number.isInteger(chunkBytes) || chunkBytes < 1024 || chunkBytes > MAX_CHUNK_BYTES) throw new Error(`options.chunkBytes must be an integer from 1024 to ${MAX_CHUNK_BYTES}, got ${chunkBytes}`);
    const chunkSeconds = options.chunkSeconds ?? DEFAULT_CHUNK_SECONDS;
    if (!(chunkSeconds > 0) || !Number.isFinite(chunkSeconds)) throw new Error(`options.chunkSeconds must be a positive number of seconds, got ${chunkSeconds}`);
    const stepNs = Math.round(header.dt * 1e9);
    if (stepNs < 1) throw new Error(`header.dt = ${header.dt} s is shorter than 1 ns`);
    const codecs = options.codecs;
    const out = new SinkWritable(sink);
    const chunkLimit = new ChunkLimit(chunkBytes);
    const mcap = new McapWriter({
      writable: out,
      // read through valueOf at every message (ChunkLimit)
      chunkSize: chunkLimit as unknown as number,
      compressChunk:
        codecs.compression === ''
          ? undefined
          : (data) => ({ compression: codecs.compression, compressedData: codecs.compress(data) }),
    });

    const schemaId = async (name: string, encoding: string, schema: unknown): Promise<number> =>
      mcap.registerSchema({ name, encoding, data: json.encode(typeof schema === 'string' ? schema : JSON.stringify(schema)) });
    const frameSchema = await schemaId(FRAME_SCHEMA_NAME, '', '');
    const keyframeSchema = await schemaId(KEYFRAME_SCHEMA_NAME, '', '');
    const inputSchema = await schemaId('terrawheel.Input', 'jsonschema', INPUT_JSON_SCHEMA);
    const jointInputSchema = await schemaId('terrawheel.JointInput', 'jsonschema', JOINT_INPUT_JSON_SCHEMA);
    const eventSchema = await schemaId('terrawheel.Event', 'jsonschema', EVENT_JSON_SCHEMA);
    const wheelsSchema = await schemaId('terrawheel.Wheels', 'jsonschema', WHEELS_JSON_SCHEMA);
    const tfSchema = await schemaId('foxglove.FrameTransforms', 'jsonschema', FrameTransformsSchema);
    const sceneSchema = await schemaId('foxglove.SceneUpdate', 'jsonschema', SceneUpdateSchema);
    const channel = (topic: string, schema: number, encoding: string): Promise<number> =>
      mcap.registerChannel({ topic, schemaId: schema, messageEncoding: encoding, metadata: new Map() });
    const channelIds = {
      [TOPIC.frame]: await channel(TOPIC.frame, frameSchema, FRAME_ENCODING),
      [TOPIC.keyframe]: await channel(TOPIC.keyframe, keyframeSchema, KEYFRAME_ENCODING),
      [TOPIC.input]: await channel(TOPIC.input, inputSchema, 'json'),
      [TOPIC.jointInput]: await channel(TOPIC.jointInput, jointInputSchema, 'json'),
      [TOPIC.event]: await channel(TOPIC.event, eventSchema, 'json'),
      [TOPIC.wheels]: await channel(TOPIC.wheels, wheelsSchema, 'json'),
      [TOPIC.transforms]: await channel(TOPIC.transforms, tfSchema, 'json'),
      [TOPIC.scene]: await channel(TOPIC.scene, sceneSchema, 'json'),
      [TOPIC.contacts]: await channel(TOPIC.contacts, sceneSchema, 'json'),
      [TOPIC.transformsResting]: await channel(TOPIC.transformsResting, tfSchema, 'json'),
      [TOPIC.contactsResting]: await channel(TOPIC.contactsResting, sceneSchema, 'json'),
    } as Record<Topic, number>;

    const metadata: RecordingMetadata = {
      formatVersion: RECORDING_FORMAT_VERSION,
      buildId: header.buildId,
      createdAt: header.createdAt ?? new Date().toISOString(),
      scenarioName: header.scenarioName ?? '',
      assets: (header.assets ?? []).map((a) => ({ name: String(a.name), hash: String(a.hash) })),
      parent: header.parent ?? null,
      dt: header.dt,
      stepNs,
      keyframeInterval,
      foxgloveEvery: foxgloveHz > 0 ? Math.max(1, Math.round(1 / (header.dt * foxgloveHz))) : 0,
      frameEncoding: { delta: true, ...(options.frameEncoding ?? DEFAULT_FRAME_ENCODING) },
      bodies: header.bodies.map((b) => ({ name: b.name, shape: b.shape })),
      wheels: [...wheels],
      channels: { ...channelIds },
    };
    const scenarioText = typeof header.scenario === 'string' ? header.scenario : JSON.stringify(header.scenario ?? null);

    await mcap.start({ profile: RECORDING_PROFILE, library: `terrawheel ${header.buildId}` });
    await mcap.addMetadata({ name: RECORDING_METADATA_NAME, metadata: metadataToMap(metadata) });
    await mcap.addAttachment({ name: SCENARIO_ATTACHMENT_NAME, logTime: 0n, createTime: 0n, mediaType: 'application/json', data: json.encode(scenarioText) });
    return new RecordingWriter(sink, out, mcap, metadata, channelIds, header.terrain, chunkLimit, chunkWindowSteps(header.dt, chunkSeconds));
  }

  /** Bytes handed to the sink so far. */
  get bytesWritten(): number {
    return Number(this.out.pos);
  }

  /** Every record of the steps up to this one is in the bytes handed to the sink (−1: none yet). */
  get savedStep(): number {
    return this.wroteThroughStep;
  }

  /** True when a keyframe should be written at `step` (first one, then every keyframeInterval steps). */
  keyframeDue(step: number): boolean {
    return this.lastKeyframeStep < 0 || step - this.lastKeyframeStep >= this.metadata.keyframeInterval;
  }

  private checkOpen(what: string, step: number): void {
    if (this.error !== null) throw this.error instanceof Error ? this.error : new Error(String(this.error));
    if (this.closed) throw new Error(`${what}: the recording is closed`);
    if (!Number.isInteger(step) || step < 0 || step > 0xffffffff) throw new Error(`${what}.step must be an integer 0..2^32−1, got ${step}`);
    if (step < this.lastStep) throw new Error(`${what}.step ${step} is before step ${this.lastStep} already written (steps must not go back)`);
  }

  private enqueue(topic: Topic, step: number, data: Uint8Array): void {
    if (data.length > MAX_CHUNK_BYTES) throw new Error(`a ${topic} message of ${data.length} bytes at step ${step} is over the ${MAX_CHUNK_BYTES}-byte limit of a message (a reader refuses chunks over ${MAX_CHUNK_UNCOMPRESSED_BYTES} bytes)`);
    const channelId = this.channelIds[topic];
    const seq = this.sequence.get(channelId) ?? 0;
    this.sequence.set(channelId, seq + 1);
    const logTime = BigInt(step) * BigInt(this.metadata.stepNs);
    this.queue.push({ channelId, sequence: seq, logTime, publishTime: logTime, data, step, endsChunk: false });
    this.pendingBytes += data.length;
    // Started on a microtask: a step's messages are all queued before the first is taken, so
    // `endChunkAfterStep` can still mark the last of them.
    if (this.pump === null) this.pump = Promise.resolve().then(() => this.drainQueue());
  }

  /** Closes the chunk after the last message queued (the end of step `step`). */
  private endChunkAfterStep(step: number): void {
    if (this.queueHead < this.queue.length) {
      const last = this.queue[this.queue.length - 1];
      if (last.step === step) last.endsChunk = true;
    }
    this.chunkStartStep = -1;
  }

  /** Hands queued messages to the MCAP writer one at a time (its calls must not overlap). */
  private async drainQueue(): Promise<void> {
    try {
      // Taken from the front by index, the array compacted once empty: no per-message promise.
      while (this.queueHead < this.queue.length) {
        const m = this.queue[this.queueHead];
        this.queue[this.queueHead++] = undefined as unknown as (typeof this.queue)[number];
        this.pendingBytes -= m.data.length;
        if (this.error !== null) continue;
        this.chunkLimit.now = m.endsChunk ? -1 : this.chunkLimit.bytes;
        await this.mcap.addMessage(m);
        this.chunkLimit.now = this.chunkLimit.bytes;
        if (m.endsChunk) {
          this.wroteThroughStep = m.step;
          this.sink.wroteThrough?.(m.step);
        }
      }
    } catch (e) {
      if (this.error === null) this.error = e;
      for (let k = this.queueHead; k < this.queue.length; k++) this.pendingBytes -= this.queue[k].data.length;
    } finally {
      this.queue.length = 0;
      this.queueHead = 0;
      this.pump = null;
    }
  }

  private enqueueJson(topic: Topic, step: number, value: unknown): void {
    this.enqueue(topic, step, json.encode(JSON.stringify(value)));
  }

  private enqueueText(topic: Topic, step: number, text: string): void {
    this.enqueue(topic, step, json.encode(text));
  }

  /** A drive command, in effect from `step` on (before the world steps from `step` to `step + 1`). */
  writeInput(input: InputRecord): void {
    this.checkOpen('input', input.step);
    if (!Number.isFinite(input.throttle) || !Number.isFinite(input.steer)) throw new Error(`input.throttle/steer must be finite, got ${input.throttle}, ${input.steer}`);
    this.lastStep = input.step;
    this.throttle = input.throttle;
    this.steer = input.steer;
    this.inputsWritten++;
    this.enqueueJson(TOPIC.input, input.step, { step: input.step, throttle: input.throttle, steer: input.steer });
  }

  /**
   * A per-joint velocity command, in effect from `step` on (applied, in the order written, with
   * the step's drive input before the world steps from `step` to `step + 1`).
   */
  writeJointInput(input: JointInputRecord): void {
    this.checkOpen('joint input', input.step);
    if (typeof input.joint !== 'string' || input.joint.length === 0 || input.joint.length > MAX_JOINT_NAME_LENGTH) throw new Error(`jointInput.joint must be a joint name of 1 to ${MAX_JOINT_NAME_LENGTH} characters, got ${JSON.stringify(input.joint)}`);
    if (!Number.isFinite(input.velocity)) throw new Error(`jointInput.velocity must be finite, got ${input.velocity}`);
    this.lastStep = input.step;
    this.inputsWritten++;
    this.enqueueJson(TOPIC.jointInput, input.step, { step: input.step, joint: input.joint, velocity: input.velocity });
  }

  /** The world's saved state at `step` (after `step` steps); the input in effect is added. */
  writeKeyframe(k: { step: number; hash: string; bytes: Uint8Array }): void {
    this.checkOpen('keyframe', k.step);
    const data = encodeKeyframe({ step: k.step, hash: k.hash, bytes: k.bytes, throttle: this.throttle, steer: this.steer });
    this.lastStep = k.step;
    this.lastKeyframeStep = k.step;
    this.keyframesWritten++;
    this.enqueue(TOPIC.keyframe, k.step, data);
  }

  /** A fault or note for the timeline. */
  writeEvent(e: EventRecord): void {
    this.checkOpen('event', e.step);
    if (typeof e.kind !== 'string' || typeof e.message !== 'string') throw new Error('event.kind and event.message must be strings');
    this.lastStep = e.step;
    this.eventsWritten++;
    const value: EventRecord = { step: e.step, kind: e.kind, message: e.message };
    if (e.body !== undefined) value.body = e.body;
    this.enqueueJson(TOPIC.event, e.step, value);
  }

  /**
   * One step's report (spec.ts layout). The arrays are read now: the caller may reuse them at once.
   * Written as a delta against the frame before (frame-delta.ts) unless it is the first frame,
   * a keyframe's step, a keyframe interval after the last full frame, or its contacts are not in
   * bodyA order. `hint` (from a capture changes record, capture.ts) names what cannot have changed
   * since the frame written before; the file is the same with or without it.
   */
  writeFrame(f: FrameData, hint?: FrameChangeHint): void {
    this.frameMessages(f, hint);
    this.chunkClock(f.step);
  }

  private frameMessages(f: FrameData, hint: FrameChangeHint | undefined): void {
    this.checkOpen('frame', f.step);
    if (f.step <= this.lastFrameStep) throw new Error(`frame.step ${f.step} must be after the last frame's step ${this.lastFrameStep}`);
    checkFrameCounts(f);
    const m = this.metadata;
    const enc = m.frameEncoding;
    const ch = this.changes;
    ch.compare(f, hint);
    const full = !ch.deltaPossible || enc.delta === false || this.lastKeyframeStep === f.step || f.step - this.lastFullFrameStep >= m.keyframeInterval;
    const data = full ? encodeFrame(f, enc, this.scratch) : encodeDeltaFrame(f, ch, this.lastFrameStep, enc, this.scratch);
    if (full) this.lastFullFrameStep = f.step;
    const first = this.lastFrameStep < 0;
    this.lastStep = f.step;
    this.lastFrameStep = f.step;
    this.framesWritten++;
    this.enqueue(TOPIC.frame, f.step, data);
    const every = m.foxgloveEvery;
    if (every !== 0) this.noteChanges(f);
    ch.commit(f);
    if (every === 0) return;
    const t = timeFromNs(BigInt(f.step) * BigInt(m.stepNs));
    if (!this.sceneSent) {
      this.sceneSent = true;
      this.enqueueJson(TOPIC.scene, f.step, staticScene(m.bodies, m.wheels, this.terrain, t));
    }
    if (!first && f.step % every !== 0) return;
    this.writeFoxglove(f, t);
    if (m.wheels.length > 0) this.enqueueJson(TOPIC.wheels, f.step, wheelsMessage(f, m.bodies, m.wheels, this.radii, m.dt, t, this.wheelScratch));
  }

  /** Counts `step` into the chunk being filled; closes it after this step once it spans chunkSteps. */
  private chunkClock(step: number): void {
    if (this.chunkStartStep < 0) this.chunkStartStep = step;
    if (step - this.chunkStartStep + 1 >= this.chunkSteps) this.endChunkAfterStep(step);
  }

  /** Marks the bodies and contact blocks that changed in this frame (for the next Foxglove message). */
  private noteChanges(f: FrameData): void {
    const B = f.bodyCount;
    const ch = this.changes;
    if (this.movedSince.length !== B) {
      // a new body count: everything is new, nothing is resting
      this.movedSince = new Uint8Array(B).fill(1);
      this.blockMovedSince = new Uint8Array(B).fill(1);
      this.restingBodies = new Uint8Array(B);
      this.restingBlocks = new Uint8Array(B);
    }
    for (let k = 0; k < ch.changedBodies; k++) this.movedSince[ch.bodies[k]] = 1;
    if (!ch.blocked) this.unblockedSince = true;
    else for (let k = 0; k < ch.changedBlocks; k++) this.blockMovedSince[ch.blocks[k]] = 1;
  }

  /**
   * The Foxglove view of this frame. Moving things go out at every message: `/terrawheel/tf` (bodies
   * whose pose changed since the last message) and `/terrawheel/contacts` (contact blocks that
   * changed). Resting things go out only when the resting set changes: `/terrawheel/tf_resting`
   * and `/terrawheel/contacts_resting` each hold the whole resting set and replace the previous
   * message, so the last message of each topic before any time (what Foxglove loads after a seek)
   * shows everything.
   */
  private writeFoxglove(f: FrameData, t: ReturnType<typeof timeFromNs>): void {
    const B = f.bodyCount;
    const m = this.metadata;
    const moved = this.movedSince;
    const blockMoved = this.blockMovedSince;
    this.enqueueText(TOPIC.transforms, f.step, frameTransformsJson(f, this.names, t, moved, 1));
    let restingChanged = false;
    for (let b = 0; b < B; b++) {
      const r = moved[b] === 0 ? 1 : 0;
      if (r !== this.restingBodies[b]) restingChanged = true;
      this.restingBodies[b] = r;
    }
    if (restingChanged) this.enqueueText(TOPIC.transformsResting, f.step, frameTransformsJson(f, this.names, t, moved, 0));

    const ch = this.changes;
    const start = ch.blockStart;
    restingChanged = false;
    if (!ch.blocked || this.unblockedSince) {
      // no blocks to tell resting contacts from moving ones: all are moving
      this.enqueueText(TOPIC.contacts, f.step, contactSceneJson(f, t));
      for (let b = 0; b < B; b++) {
        if (this.restingBlocks[b] !== 0) restingChanged = true;
        this.restingBlocks[b] = 0;
      }
      if (restingChanged) this.enqueueText(TOPIC.contactsResting, f.step, contactSceneJson(f, t, { start, mask: this.restingBlocks, want: 1 }, 'contacts_resting'));
    } else {
      this.enqueueText(TOPIC.contacts, f.step, contactSceneJson(f, t, { start, mask: blockMoved, want: 1 }));
      for (let b = 0; b < B; b++) {
        const r = blockMoved[b] === 0 && start[b + 1] > start[b] ? 1 : 0;
        if (r !== this.restingBlocks[b]) restingChanged = true;
        this.restingBlocks[b] = r;
      }
      if (restingChanged) this.enqueueText(TOPIC.contactsResting, f.step, contactSceneJson(f, t, { start, mask: this.restingBlocks, want: 1 }, 'contacts_resting'));
    }
    moved.fill(0);
    blockMoved.fill(0);
    this.unblockedSince = false;
  }

  /**
   * The per-step call for a live world, after the world has stepped to `frame.step`: a keyframe
   * when one is due, then the frame. Write the step's input (if it changed) and events before it:
   * that order (input, keyframe, event, frame) keeps everything a replay of step s needs in the
   * chunks up to step s's frame, so a cut file loses none of it for the steps it still has.
   */
  recordStep(frame: FrameData, world: { saveState(): Uint8Array; stateHash(): string }): void {
    if (this.keyframeDue(frame.step)) this.writeKeyframe({ step: frame.step, hash: world.stateHash(), bytes: world.saveState() });
    this.writeFrame(frame);
  }

  /** Resolves when everything queued so far is in the MCAP writer (and full chunks in the sink). */
  async drain(): Promise<void> {
    while (this.pump !== null) await this.pump;
    if (this.error !== null) throw this.error;
  }

  /** Writes the last chunk, the summary and the footer, then closes the sink. */
  async close(): Promise<void> {
    if (this.closed) return;
    await this.drain();
    this.closed = true;
    await this.mcap.end();
    await this.sink.close?.();
  }
}
