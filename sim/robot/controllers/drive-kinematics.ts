/**
 * Closed-form drive kinematics (pure functions, no state, no allocation).
 *
 * Skid / differential steer: a rigid chassis moving at forward speed v [m/s] and yaw rate ω
 * [rad/s] has its left and right wheel contact lines (±T/2 from the centre line) moving at
 *
 *     v_left = v − ω·T/2,   v_right = v + ω·T/2,   wheel angular speed = v_side / r.
 *
 * (Skid steer with more than one axle per side is the same law; the wheels scrub sideways in a
 * turn, which the contact friction resolves.)
 *
 * Ackermann (bicycle model, ICR on the rear-axle line): with wheelbase L, steering-pivot track T
 * and turn radius R of the rear-axle centre (R > 0 turns left), curvature κ = 1/R, the bicycle
 * steering angle δ has tan δ = L/R = L·κ, and the two steered wheels point at the same ICR:
 *
 *     tan δ_left  = L / (R − T/2) = L·κ / (1 − κ·T/2)        (inner wheel when turning left)
 *     tan δ_right = L / (R + T/2) = L·κ / (1 + κ·T/2)
 *
 * written in κ so that straight ahead (κ = 0, R = ∞) is no special case. The rear wheels roll on
 * circles of radius R ∓ T/2: v_left = v·(1 − κ·T/2), v_right = v·(1 + κ·T/2), with v the speed
 * of the rear-axle centre.
 *
 *              ICR ●───────── R ─────────┐  rear axle
 *                   ╲                    │
 *                    ╲ δ_left  (inner)   │ L
 *                     ╲      δ_right     │
 *                                        front axle
 */

/** out[0] = left, out[1] = right wheel angular speed [rad/s] for forward speed v and yaw rate w. */
export function skidSteerWheelSpeeds(out: Float64Array | number[], v: number, w: number, track: number, wheelRadius: number): Float64Array | number[] {
  out[0] = (v - (w * track) / 2) / wheelRadius;
  out[1] = (v + (w * track) / 2) / wheelRadius;
  return out;
}

/** out[0] = left, out[1] = right steering angle [rad] (positive: wheel turned left) for curvature κ [1/m]. */
export function ackermannSteeringAngles(out: Float64Array | number[], curvature: number, wheelbase: number, track: number): Float64Array | number[] {
  out[0] = Math.atan2(wheelbase * curvature, 1 - (curvature * track) / 2);
  out[1] = Math.atan2(wheelbase * curvature, 1 + (curvature * track) / 2);
  return out;
}

/** out[0] = left, out[1] = right rear wheel angular speed [rad/s] for rear-axle speed v and curvature κ. */
export function ackermannRearWheelSpeeds(out: Float64Array | number[], v: number, curvature: number, track: number, wheelRadius: number): Float64Array | number[] {
  out[0] = (v * (1 - (curvature * track) / 2)) / wheelRadius;
  out[1] = (v * (1 + (curvature * track) / 2)) / wheelRadius;
  return out;
}

/**
 * [1/m] The largest curvature at which the inner wheel's angle is `maxInnerSteer`:
 * tan s = L·κ/(1 − κ·T/2)  ⇒  κ = tan s / (L + tan s · T/2).
 */
export function ackermannMaxCurvature(wheelbase: number, track: number, maxInnerSteer: number): number {
  const t = Math.tan(maxInnerSteer);
  return t / (wheelbase + (t * track) / 2);
}

/**
 * Joint velocity [rad/s] that turns a position-controlled steering joint toward its target: a P
 * controller, gain [1/s], clamped to ±maxRate [rad/s]. NaN inputs or a non-finite maxRate give 0 (hold still).
 */
export function steeringMotorVelocity(currentAngle: number, targetAngle: number, gain: number, maxRate: number): number {
  if (!(maxRate >= 0 && maxRate < Infinity)) return 0;
  const v = gain * (targetAngle - currentAngle);
  if (Number.isNaN(v)) return 0;
  return v > maxRate ? maxRate : v < -maxRate ? -maxRate : v;
}

/**
 * All-wheel steering, one wheel: the chassis moves at forward speed v and yaw rate ω about the
 * reference point, so the wheel at (x, y) from it moves at (v − ω·y, ω·x) in the base frame.
 * A steered wheel points along that velocity, folded into (−π/2, π/2] (rolling backwards rather
 * than turning past sideways): out[0] = steering angle [rad], out[1] = rolling speed [m/s]
 * (negative: backwards). A fixed wheel keeps angle 0 and rolls the forward part v − ω·y. At
 * rest (v = ω = 0) a steered wheel points straight ahead.
 */
export function allWheelSteerTarget(out: Float64Array | number[], v: number, w: number, x: number, y: number, steered: boolean): Float64Array | number[] {
  const vx = v - w * y, vy = w * x;
  if (!steered) {
    out[0] = 0;
    out[1] = vx;
    return out;
  }
  const speed = Math.hypot(vx, vy);
  if (speed === 0) {
    out[0] = 0;
    out[1] = 0;
    return out;
  }
  // fold: a wheel whose velocity points backwards turns the short way and rolls backwards
  const back = vx < 0 || (vx === 0 && vy < 0);
  out[0] = back ? Math.atan2(-vy, -vx) : Math.atan2(vy, vx);
  out[1] = back ? -speed : speed;
  return out;
}

/** Moves `current` toward `target` by at most `maxDelta` (a rate limiter over one step). */
export function approach(current: number, target: number, maxDelta: number): number {
  const d = target - current;
  if (d > maxDelta) return current + maxDelta;
  if (d < -maxDelta) return current - maxDelta;
  return target;
}
