/** Types of pass-timer.mjs (see there). */
export declare const threadCpuSeconds: () => number;
export declare const MIN_PASS_SECONDS: number;
export interface PassRates {
  /** items per wall-clock second */
  wall: number;
  /** items per CPU-second of the calling thread */
  cpu: number;
}
export declare function passRates<T>(items: readonly T[], query: (item: T) => void, runs: number, warmup: number): PassRates;
