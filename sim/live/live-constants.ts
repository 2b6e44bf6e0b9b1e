/**
 * Limits shared by the headless LiveSession (session.ts) and the desktop app's link (app-link.ts),
 * in a module of their own so Electron main's bundle takes them without the session's Node I/O.
 */
/** Time scale range (simulated seconds per wall-clock second), as the app's; Infinity also: as fast as the CPU allows. */
export const MIN_TIME_SCALE = 0.1;
export const MAX_TIME_SCALE = 10;
/** [m/s] Below this commanded speed an Ackermann robot is not steered by a twist's yaw rate (δ = atan(ω·L/v) has no limit at v = 0). */
export const TWIST_SPEED_FLOOR = 1e-3;

