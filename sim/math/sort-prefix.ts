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
