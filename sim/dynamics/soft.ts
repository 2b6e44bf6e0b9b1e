/**
 * Soft constraints (Catto, "Solver2D" / Box2D v3's b2Softness): a constraint C = 0 behaves as a
 * damped spring of natural frequency ω = 2π·hertz and damping ratio ζ, integrated implicitly
 * over the substep h. With a1 = 2ζ + hω and a2 = hω·a1, the velocity update of one row is
 *
 *     λ += −m_eff·massScale·(Ċ + biasRate·C) − impulseScale·λ_accumulated
 *
 * with biasRate = ω / a1, massScale = a2 / (1 + a2), impulseScale = 1 / (1 + a2). A rigid
 * constraint is the limit hertz → ∞ (massScale → 1, impulseScale → 0, biasRate → 1/h).
 *
 * A physical spring–damper (stiffness k, damping c) maps onto the same three numbers directly
 * (the ERP/CFM form of the implicit step): γ = 1/(h(c + hk)) as compliance, β = hk/(c + hk).
 */

export class Softness {
  biasRate = 0;
  massScale = 1;
  impulseScale = 0;

  /** Stiffness in hertz and a damping ratio, for substep h. hertz = 0 gives a rigid row without bias. */
  setHertz(hertz: number, dampingRatio: number, h: number): this {
    if (hertz === 0) {
      this.biasRate = 0;
      this.massScale = 1;
      this.impulseScale = 0;
      return this;
    }
    const omega = 2 * Math.PI * hertz;
    const a1 = 2 * dampingRatio + h * omega;
    const a2 = h * omega * a1;
    const a3 = 1 / (1 + a2);
    this.biasRate = omega / a1;
    this.massScale = a2 * a3;
    this.impulseScale = a3;
    return this;
  }
}

/**
 * Spring–damper row of effective mass `m` (= 1/K): returns the coefficients so that
 * λ += −m·massScale·(Ċ + biasRate·C) − impulseScale·λ_acc reproduces F = −kC − cĊ implicitly.
 */
export function springSoftness(out: Softness, stiffness: number, damping: number, m: number, h: number): Softness {
  // Implicit spring: impulse = −(Ċ + β/h·C + γ·λ)/(K + γ), β = hk/(c+hk), γ = 1/(h(c+hk)).
  const d = damping + h * stiffness;
  if (!(d > 0) || !(m > 0)) {
    out.biasRate = 0;
    out.massScale = 0;
    out.impulseScale = 0;
    return out;
  }
  const gamma = 1 / (h * d);
  const K = 1 / m;
  const scale = K / (K + gamma); // m·massScale = 1/(K+γ)  ⇒  massScale = K/(K+γ)
  out.biasRate = stiffness / d;
  out.massScale = scale;
  out.impulseScale = gamma / (K + gamma);
  return out;
}

/**
 * Softness of contact rows: the coefficients of the base stiffness (for shallow overlap and
 * between moving bodies), and what it takes to recompute them for a deep contact with the
 * ground (sim/dynamics/contacts.ts solveContacts; CONTACT_STIFFEN_DEPTH): the base hertz,
 * damping ratio and substep, the depth where stiffening starts and its largest hertz.
 */
export class ContactSoftness extends Softness {
  hertz = 0;
  dampingRatio = 0;
  h = 0;
  stiffenDepth = Infinity;
  staticMaxHertz = 0;
  /** A deep contact's coefficients (deep()'s result, reused: nothing allocated per row). */
  private readonly stiff = new Softness();

  /**
   * The coefficients of a ground contact `depth` [m] deep (more than stiffenDepth): the base
   * hertz × (depth / stiffenDepth)², at most staticMaxHertz.
   */
  deep(depth: number): Softness {
    const r = depth / this.stiffenDepth;
    return this.stiff.setHertz(Math.min(this.hertz * r * r, this.staticMaxHertz), this.dampingRatio, this.h);
  }

  configure(hertz: number, dampingRatio: number, h: number, stiffenDepth: number, staticMaxHertz: number): this {
    this.hertz = hertz;
    this.dampingRatio = dampingRatio;
    this.h = h;
    this.stiffenDepth = stiffenDepth;
    this.staticMaxHertz = Math.max(hertz, staticMaxHertz);
    this.setHertz(hertz, dampingRatio, h);
    return this;
  }
}
