/**
 * One number per proxy pair, shared by the broad phases: key = min·S + max with S =
 * TREE_MAX_NODES, so sorting keys sorts pairs by (smaller id, larger id) and a float64 holds
 * every key exactly (S² < 2⁵³).
 */
import { TREE_MAX_NODES } from '../../constants';

/** Key of the unordered pair {p, q}. */
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
