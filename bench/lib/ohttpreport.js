/**
 * The OHTTP section of the run report (stage `ohttp`, issue 23): the cold first request per mode
 * at the added RTT (plain, session = handshake + request, OHTTP direct and through the relay, and
 * the floor: OHTTP's cryptography alone around the plain echo, where the run has it),
 * throughput of OHTTP vs plain at 1 KB / 100 KB, and server CPU per request (OHTTP next to a
 * session request and plain), against the targets. The stage's throughput runs against
 * a bare node:http echo (the lean-server floor); the 1 KB target is on the pinned server,
 * the load stage's `ohttp-1k-pinned` variant (the demo's own gateway under `next start`), shown
 * here when the run has it.
 */
import { chart, escapeHtml, table } from './charts.js';

const COLD_MODES = ['plain', 'floor', 'session', 'ohttp', 'ohttp-relay'];

export function ohttpSection(data, cs, loadVariants = []) {
  const { coldMs, throughput, figures, targets } = data;
  const pinned = loadVariants?.find((v) => v.id === 'ohttp-1k-pinned' && !v.skipped) ?? null;
  const pinnedCpu = (m) => pinned?.[m]?.server?.cpuMsPerRequest ?? null;
  const tp = (k) => throughput[k]?.rps ?? null;
  const cpu = (k) => throughput[k]?.serverCpuUsPerRequest ?? null;
  const coldModes = COLD_MODES.filter((m) => m in coldMs); // runs before the floor have none
  const out = [
    `<h2 id="ohttp">Oblivious HTTP: cold first request (+${escapeHtml(data.rttMs)} ms RTT, median of ${escapeHtml(data.rounds)}), throughput and server CPU (gateway: ${escapeHtml(data.gateway)})</h2><div class="charts">`,
    cs.add(
      chart({
        title: `Cold first request, +${data.rttMs} ms RTT`,
        xLabel: 'mode',
        yLabel: 'ms',
        categorical: true,
        kind: 'bar',
        x: coldModes,
        series: [{ name: 'median ms', values: coldModes.map((m) => coldMs[m] ?? null) }],
      }),
    ),
    cs.add(
      chart({
        title: 'Throughput, OHTTP vs plain (keep-alive)',
        xLabel: 'body',
        yLabel: 'req/s',
        categorical: true,
        kind: 'bar',
        x: ['1 KB', '100 KB'],
        series: [
          { name: 'plain', values: [tp('plain-1k'), tp('plain-100k')] },
          { name: 'OHTTP', values: [tp('ohttp-1k'), tp('ohttp-100k')] },
        ],
      }),
    ),
    cs.add(
      chart({
        title: 'Server CPU per 1 KB request',
        xLabel: 'mode',
        yLabel: 'µs',
        categorical: true,
        kind: 'bar',
        x: ['plain', 'session', 'ohttp'],
        series: [{ name: 'µs', values: [cpu('plain-1k'), cpu('session-1k'), cpu('ohttp-1k')] }],
      }),
    ),
    '</div>',
    table(
      ['figure', 'value', 'target'],
      [
        ['OHTTP cold - plain (ms)', figures.ohttpColdOverPlainMs, `<= ${targets.ohttpColdOverPlainMs}`],
        ['OHTTP via relay cold - plain (ms)', figures.ohttpRelayColdOverPlainMs, ''],
        ["floor cold - plain (ms): OHTTP's cryptography alone, no Binary HTTP / replay / dispatch", figures.ohttpFloorColdOverPlainMs ?? '–', ''],
        ['OHTTP cold - floor (ms): what @nen/client and @nen/server add', figures.ohttpColdOverFloorMs ?? '–', ''],
        ['session cold - OHTTP cold (ms)', figures.sessionColdOverOhttpMs, `~ ${targets.sessionColdOverOhttpMs} (one RTT)`],
        ['OHTTP / plain req/s, 1 KB, pinned demo (load stage, c=50)', pinned?.ratio.rps ?? '–', `>= ${targets.ohttpRpsRatio1k}`],
        [
          'server CPU ms / request OHTTP, plain (pinned demo, 1 KB)',
          pinned ? `${pinnedCpu('encrypted')}, ${pinnedCpu('plain')} (+${pinned.serverCpuMsOverPlain})` : '–',
          '',
        ],
        ['OHTTP / plain req/s, 1 KB, bare node:http echo (lean-server floor)', figures.ohttpRpsRatio1k, ''],
        ['OHTTP / plain req/s, 100 KB', figures.ohttpRpsRatio100k, ''],
        [
          'server CPU µs / request: plain, session, OHTTP (1 KB)',
          `${figures.plainServerCpuUs1k}, ${figures.sessionServerCpuUs1k}, ${figures.ohttpServerCpuUs1k}`,
          '',
        ],
      ],
    ),
    table(
      ['run', 'req/s', 'errors', 'server CPU µs / request'],
      Object.entries(throughput).map(([k, v]) => [k, v.rps, v.errors, v.serverCpuUsPerRequest]),
    ),
  ];
  return out.join('\n');
}
