// The two ladders, as `ladders solve` defines them (README, "How the two ladders are chosen"):
// shortest: fewest steps, then least sum of rareness (a breadth-first search keeping each word's least
// sum over its shortest paths); common: a word costs what the manifest's `costs` give its label (an
// everyday word 1, an uncommon one 5), any other its rareness; Dijkstra on (sum of costs, steps, sum of rareness). Both keep to the group the two words share.
// Reads the words' fields through words.js (at, neighbours, refused) over the buckets already loaded.
"use strict";

class Heap {  // a binary min-heap of [cost, steps, rareness, node], least triple first
  constructor() { this.a = []; }
  get size() { return this.a.length; }
  less(x, y) { return x[0] !== y[0] ? x[0] < y[0] : x[1] !== y[1] ? x[1] < y[1] : x[2] < y[2]; }
  push(item) {
    const a = this.a; a.push(item);
    for (let i = a.length - 1; i > 0;) {
      const p = (i - 1) >> 1;
      if (!this.less(a[i], a[p])) break;
      [a[i], a[p]] = [a[p], a[i]]; i = p;
    }
  }
  pop() {
    const a = this.a, top = a[0], last = a.pop();
    if (a.length) {
      a[0] = last;
      for (let i = 0; ;) {
        const l = 2 * i + 1, r = l + 1;
        let m = i;
        if (l < a.length && this.less(a[l], a[m])) m = l;
        if (r < a.length && this.less(a[r], a[m])) m = r;
        if (m === i) break;
        [a[i], a[m]] = [a[m], a[i]]; i = m;
      }
    }
    return top;
  }
}

function pathTo(parent, t) {
  const path = [t];
  while (parent.get(path[0]) !== undefined) path.unshift(parent.get(path[0]));
  return path;
}

function search(s, t, column, edit, clean) {
  const group = at(s, column), rareness = (u) => at(u, "rareness");
  const allowed = (u) => at(u, column) === group && !refused(u, clean);
  // Shortest: breadth-first, layer by layer; a word's predecessors are all in the layer before, so its
  // least rareness sum is final before it is itself expanded.
  let parent = new Map([[s, undefined]]);
  const dist = new Map([[s, 0]]), sum = new Map([[s, rareness(s)]]), queue = [s];
  for (let head = 0; head < queue.length; head++) {
    const v = queue[head];
    if (dist.has(t) && dist.get(v) >= dist.get(t)) break;
    for (const u of neighbours(v, edit)) {
      if (!allowed(u)) continue;
      const c = sum.get(v) + rareness(u);
      if (!dist.has(u)) {
        dist.set(u, dist.get(v) + 1); sum.set(u, c); parent.set(u, v); queue.push(u);
      } else if (dist.get(u) === dist.get(v) + 1 && c < sum.get(u)) {
        sum.set(u, c); parent.set(u, v);
      }
    }
  }
  if (!parent.has(t)) return null;
  const shortest = pathTo(parent, t);
  // Common words: Dijkstra on (sum of costs, steps, sum of rareness); a word costs what the manifest's costs
  // give its label (an everyday word 1, an uncommon one 5), any other word its rareness.
  const costs = state.manifest.costs, cost = (u) => costs[at(u, "label")] ?? rareness(u);
  const best = new Map([[s, [cost(s), 0, rareness(s)]]]), done = new Set(), heap = new Heap();
  parent = new Map([[s, undefined]]);
  heap.push([...best.get(s), s]);
  while (heap.size) {
    const [c0, c1, c2, v] = heap.pop();
    if (done.has(v)) continue;
    done.add(v);
    if (v === t) break;
    for (const u of neighbours(v, edit)) {
      if (!allowed(u) || done.has(u)) continue;
      const c = [c0 + cost(u), c1 + 1, c2 + rareness(u)], b = best.get(u);
      if (!b || heap.less(c, b)) {
        best.set(u, c); parent.set(u, v); heap.push([...c, u]);
      }
    }
  }
  return { shortest, shortestCost: sum.get(t), common: pathTo(parent, t), cost: best.get(t)[2] };
}
