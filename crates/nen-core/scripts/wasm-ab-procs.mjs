// A/B speed of Wasm builds in alternated SEPARATE Node processes (the method of the "Wasm size"
// third pass in crates/nen-core/README.md): N rounds, each runs `wasm-ab.mjs <one dir> --rounds R`
// once per build, the order rotated per round; prints each op's median (over the N processes) of
// the per-process best batch, and its ratio to the first build.
// Usage: node crates/nen-core/scripts/wasm-ab-procs.mjs <dirA> <dirB> [...] [--procs N] [--rounds R]
// Pitfall: in one process, Wasm modules interfere (see wasm-ab.mjs); this avoids it at the cost of
// time (N x builds processes of ~1 s). Run it both ways round (A B, then B A) on a loaded machine.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args.splice(i, 2)[1]) : dflt;
};
const procs = opt('--procs', 9);
const rounds = opt('--rounds', 25);
const dirs = args;
if (dirs.length < 1) throw new Error('usage: wasm-ab-procs.mjs <dir> [<dir> ...] [--procs N] [--rounds R]');
const ab = fileURLToPath(new URL('./wasm-ab.mjs', import.meta.url));

const results = dirs.map(() => new Map());
for (let i = 0; i < procs; i++) {
  for (let k = 0; k < dirs.length; k++) {
    const j = (k + i) % dirs.length;
    const out = execFileSync(process.execPath, [ab, dirs[j], '--rounds', String(rounds)], { encoding: 'utf8' });
    for (const line of out.split('\n')) {
      const m = line.match(/^(.{36})\s+([\d.]+) \(/);
      if (!m) continue;
      const op = m[1].trim();
      if (!results[j].has(op)) results[j].set(op, []);
      results[j].get(op).push(Number(m[2]));
    }
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(`Node ${process.version}; ${procs} alternated processes per build, ${rounds} rounds each;`);
console.log(`median of per-process best batches, µs per op (ratio to ${dirs[0]})`);
for (const op of results[0].keys()) {
  const base = median(results[0].get(op));
  const cells = results.map((r) => {
    const m = median(r.get(op) ?? [Number.NaN]);
    return `${m.toFixed(1).padStart(8)} (${(m / base).toFixed(2)})`;
  });
  console.log(`${op.padEnd(36)} ${cells.join(' ')}`);
}
