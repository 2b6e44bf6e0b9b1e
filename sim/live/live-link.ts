/**
 * What a protocol adapter (foxglove-server.ts) needs of a running world: the narrow interface both
 * the headless LiveSession (session.ts, the world in this process) and the desktop app's proxy
 * (app-link.ts, the world in the renderer's web worker, reached through a MessagePort) implement.
 * Each member means what LiveSession's member of the same name documents.
 */
import type { LiveInfo, LiveInput, LiveListener, LiveRecordingStatus, LiveState } from './session';
import type { RecordedBody } from '../record/foxglove';
import type { InlineTerrainSpec } from '../dynamics/spec';

export interface LiveLink {
  readonly lockstep: boolean;
  readonly stepCount: number;
  readonly isRunning: boolean;
  readonly timeScale: number;
  info(): LiveInfo;
  sceneSource(): { bodies: RecordedBody[]; wheels: number[]; terrain: InlineTerrainSpec };
  /** The newest state known (the proxy's: the last one pulled from the app's world). */
  current(): LiveState;
  subscribe(listener: LiveListener): () => void;
  onInput(listener: (input: LiveInput) => void): () => void;
  /** Resolves when every command asked for so far has been applied (and its state published). */
  idle(): Promise<void>;
  pause(): void;
  resume(): void;
  step(n: number): Promise<number>;
  reset(): Promise<LiveRecordingStatus | null>;
  setTimeScale(scale: number): number;
  setTwist(linear: number, angular: number): { throttle: number; steer: number };
  setJointVelocity(joint: string, velocity: number): void;
  startRecording(path: string): Promise<LiveRecordingStatus>;
  stopRecording(): Promise<LiveRecordingStatus>;
}
