/**
 * The in-process A/B tools' measuring loop (node-adapter-ab.mjs, web-route-ab.mjs): every
 * (build, mode) slot runs `batch` requests per round, the slots in an order rotated each round so
 * that no slot always follows the same neighbour; CPU µs per request from process.cpuUsage.
 *
 * Pitfall: a batch's garbage can be collected in the next slot's batch; medians over rounds
 * (`median`) damp it, and callers warm every slot up first.
 */

/** sides: [{ name, modes: { mode: [make, go] } }] → [{ key, us: [µs per request, one per round] }]. */
export async function measureSlots(sides, rounds, batch) {
  const slots = sides.flatMap((s) => Object.entries(s.modes).map(([mode, m]) => ({ key: `${s.name} ${mode}`, m, us: [] })));
  for (let round = 0; round < rounds; round++) {
    const order = slots.map((_, i) => slots[(i + round) % slots.length]);
    for (const slot of order) {
      const [make, go] = slot.m;
      const reqs = Array.from({ length: batch }, make);
      const t0 = process.cpuUsage();
      for (const x of reqs) await go(x);
      const t = process.cpuUsage(t0);
      slot.us.push((t.user + t.system) / batch);
    }
  }
  return slots;
}

/** The median of a list of numbers (the upper one of an even count). */
export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
