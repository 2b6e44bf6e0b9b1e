/**
 * Pair keys: one float64 number per unordered pair, so that sorting keys sorts pairs. The two
 * schemes of the simulator live here and nowhere else.
 *
 * - Proxy pairs (the broad phases): key = min·P + max with P = TREE_MAX_NODES (2²⁶); sorting
 *   keys sorts pairs by (smaller proxy id, larger proxy id), and P² < 2⁵³ keeps every key exact.
 * - Body pairs (contacts, warm-start matching, jointed pairs, the saved state): key = a·B + (b + 1)
 *   with B = BODY_PAIR_SHIFT (2²¹) and b = −1 for the terrain, so a body's terrain contacts sort
 *   before its body pairs. a < 2²¹ and b + 1 < 2²¹ keep a key below 2⁴² (exact). The key is part
 *   of the saved world state (and so of the state hash): changing B changes every saved state.
 *
 * The hot loops of the collision pass compute body keys inline with BODY_PAIR_SHIFT (a call that
 * returns a double V8 does not inline boxes it); everything else calls the functions.
 */
import { TREE_MAX_NODES } from '../constants';

/** Key of the unordered proxy pair {p, q}. */
export function pairKey(p: number, q: number): number {
  return p < q ? p * TREE_MAX_NODES + q : q * TREE_MAX_NODES + p;
}

/** Smaller proxy id of a key. */
export function pairKeyA(key: number): number {
  return Math.floor(key / TREE_MAX_NODES);
}

/** Larger proxy id of a key. */
export function pairKeyB(key: number): number {
  return key - Math.floor(key / TREE_MAX_NODES) * TREE_MAX_NODES;
}

/** Multiplier of body A's index in a body-pair key (2²¹: at most 2²¹ − 1 bodies). */
export const BODY_PAIR_SHIFT = 2097152;

/** Key of the ordered body pair (a, b), b = −1 for the terrain: a·2²¹ + (b + 1). */
export function bodyPairKey(a: number, b: number): number {
  return a * BODY_PAIR_SHIFT + (b + 1);
}

/** Key of the unordered body pair {a, b} (both bodies, not the terrain). */
export function bodyPairKeySorted(a: number, b: number): number {
  return a < b ? a * BODY_PAIR_SHIFT + (b + 1) : b * BODY_PAIR_SHIFT + (a + 1);
}

/** Body A of a body-pair key. */
export function bodyPairA(key: number): number {
  return Math.floor(key / BODY_PAIR_SHIFT);
}

/** Body B of a body-pair key (−1: the terrain). */
export function bodyPairB(key: number): number {
  return key - Math.floor(key / BODY_PAIR_SHIFT) * BODY_PAIR_SHIFT - 1;
}
