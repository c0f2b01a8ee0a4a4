/**
 * Prints the runner's pass/fail table: one row per client (vectors, scenarios, real traffic,
 * total), then every failure with its reason, then one row per scenario across clients.
 *
 * Pitfall: a client with a build/start error has no results at all and counts as failing.
 */
const count = (list) => `${list.filter((r) => r.ok).length}/${list.length}`;
const pad = (s, n) => String(s).padEnd(n);

export function clientPasses(r) {
  const all = [...r.vectors, ...r.scenarios, ...r.real];
  return !r.error && all.length > 0 && all.every((x) => x.ok);
}

/** Prints the table; returns true when every client passed everything. */
export function printTable(results) {
  console.log('\nconformance');
  console.log(`${pad('client', 10)}${pad('vectors', 10)}${pad('scenarios', 11)}${pad('real', 8)}result`);
  for (const r of results) {
    const verdict = clientPasses(r) ? 'PASS 100 %' : `FAIL${r.error ? ` (${r.error.split('\n')[0].slice(0, 100)})` : ''}`;
    console.log(`${pad(r.client, 10)}${pad(count(r.vectors), 10)}${pad(count(r.scenarios), 11)}${pad(r.real.length ? count(r.real) : '-', 8)}${verdict}`);
  }
  for (const r of results) {
    for (const [kind, list] of [
      ['vector', r.vectors],
      ['scenario', r.scenarios],
      ['real', r.real],
    ]) {
      for (const x of list.filter((y) => !y.ok)) console.log(`  ${r.client} ${kind} ${x.name}: ${x.detail}`);
    }
  }
  if (results.length > 0 && results[0].scenarios.length > 0) {
    console.log(`\n${pad('scenario', 30)}${results.map((r) => pad(r.client, 8)).join('')}`);
    for (const [i, sc] of results[0].scenarios.entries()) {
      console.log(`${pad(sc.name, 30)}${results.map((r) => pad(r.scenarios[i] ? (r.scenarios[i].ok ? 'pass' : 'FAIL') : '-', 8)).join('')}`);
    }
  }
  return results.every(clientPasses);
}
