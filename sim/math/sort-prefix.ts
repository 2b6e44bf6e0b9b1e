/** In-place sorting of a typed array's prefix, with no allocation (a subarray view to sort would be one). */

/** Sorts a[0, n) ascending in place (insertion sort for short runs, heapsort above): no allocation. */
export function sortPrefix(a: Float64Array, n: number): void {
  if (n <= 32) {
    for (let i = 1; i < n; i++) {
      const x = a[i];
      let j = i - 1;
      while (j >= 0 && a[j] > x) {
        a[j + 1] = a[j];
        j--;
      }
      a[j + 1] = x;
    }
    return;
  }
  for (let start = (n >> 1) - 1; start >= 0; start--) sift(a, start, n - 1);
  for (let end = n - 1; end > 0; end--) {
    const t = a[0]; a[0] = a[end]; a[end] = t;
    sift(a, 0, end - 1);
  }
}

function sift(a: Float64Array, start: number, end: number): void {
  let root = start;
  for (;;) {
    let child = 2 * root + 1;
    if (child > end) return;
    if (child + 1 <= end && a[child] < a[child + 1]) child++;
    if (a[root] >= a[child]) return;
    const t = a[root]; a[root] = a[child]; a[child] = t;
    root = child;
  }
}

/**
 * Writes into keys[0, n) the body-pair keys lo[k]·2²¹ + hi[k] + 1 (bodyPairKey, pair-key.ts) of
 * the n pairs (lo[k] < hi[k] < bodyCount), in ascending order, by two stable counting passes (by
 * the higher body, then by the lower): O(n + bodyCount) where a comparison sort is O(n log n) (a
 * heapsort of the 19,000 pairs of a 1,000-box pile took 11 % of its step). tLo, tHi (length ≥ n)
 * and count (length ≥ bodyCount + 1) are scratch; nothing allocates. Distinct pairs give the
 * same array as sorting their keys.
 */
export function sortPairKeys(
  keys: Float64Array, lo: Int32Array, hi: Int32Array, n: number, bodyCount: number,
  tLo: Int32Array, tHi: Int32Array, count: Int32Array,
): void {
  count.fill(0, 0, bodyCount + 1);
  for (let k = 0; k < n; k++) count[hi[k] + 1]++;
  for (let b = 0; b < bodyCount; b++) count[b + 1] += count[b];
  for (let k = 0; k < n; k++) {
    const at = count[hi[k]]++;
    tLo[at] = lo[k];
    tHi[at] = hi[k];
  }
  count.fill(0, 0, bodyCount + 1);
  for (let k = 0; k < n; k++) count[tLo[k] + 1]++;
  for (let b = 0; b < bodyCount; b++) count[b + 1] += count[b];
  for (let k = 0; k < n; k++) {
    const a = tLo[k];
    keys[count[a]++] = a * PAIR_SHIFT + (tHi[k] + 1);
  }
}

/** BODY_PAIR_SHIFT of collision/pair-key.ts (math/ does not import from collision/). */
const PAIR_SHIFT = 2097152;
