// `npm run bench`: start-up and query cost of the built CLI, as ratios against `node -e 0`
// measured in the same session, runs alternating so machine noise hits both alike. Not a test:
// it prints a table and writes bench-results/latest.json for comparison between commits.
//
//   node scripts/bench.mjs [--runs N] [--only TEXT] [--clean-env] [--lines 20,24]
//
// Every case runs on each supported Node line named by --lines (default: the Node running the
// bench, and 24 from the npm registry, scripts/node-line.mjs), each against its own node -e 0.
// --only TEXT: only the cases whose name contains TEXT (several: 'A|B') (`--only profiles`: the export --profiles
// fan-out alone, on the bench's own Node). --clean-env: run every command with only
// PATH and HOME (plus cdata's own variables) instead of this shell's environment. Some machines
// set variables that slow every Node start-up (NODE_EXTRA_CA_CERTS loads a CA bundle: ~40 ms);
// the default measures what a user of this shell pays, --clean-env what Node itself costs.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempFolder } from './temp-folder.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const runsFlag = process.argv.indexOf('--runs');
const RUNS = runsFlag > 0 ? Number(process.argv[runsFlag + 1]) : 21;
const onlyFlag = process.argv.indexOf('--only');
const ONLY = onlyFlag > 0 ? process.argv[onlyFlag + 1].split('|') : undefined;
/** Whether --only names this case: any of its `|`-separated texts within the name. */
const named = (name) => ONLY === undefined || ONLY.some((text) => name.includes(text));
const CLEAN_ENV = process.argv.includes('--clean-env');
const linesFlag = process.argv.indexOf('--lines');
const { nodeLine } = await import('./node-line.mjs');
const thisLine = process.versions.node.split('.')[0];
const LINES = (linesFlag > 0 ? process.argv[linesFlag + 1].split(',') : [thisLine, '24']).filter(
  (line, i, all) => all.indexOf(line) === i,
);
const NODES = LINES.map((line) => ({ line, path: line === thisLine ? process.execPath : nodeLine(line) }));
const WARMUP = 3;
const LATENCY_MS = 200;

execFileSync(process.execPath, [join(root, 'scripts/build.mjs')], { stdio: 'inherit' });
// Everything the bench writes (floors, config, exports) goes here, removed however the bench ends.
const work = tempFolder('cdata-bench-');
// The floors, bundled as dist/cli.cjs is (scripts/floor: what the stack alone costs): CommonJS,
// one file each, so they pay no more module loading than cdata does.
const { build } = await import('esbuild');
const { neverUsed } = await import('./never-used.mjs');
await build({
  absWorkingDir: root,
  entryPoints: ['scripts/floor/undici-get.mjs', 'scripts/floor/commander-undici-get.mjs'],
  outdir: join(work, 'floor'),
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  minifyWhitespace: true,
  minifySyntax: true,
  outExtension: { '.js': '.cjs' },
  plugins: [neverUsed],
  logLevel: 'warning',
});
// The sandboxes run in their own process: spawnSync below blocks this one's event loop.
const sandboxes = spawn(
  process.execPath,
  [
    '--input-type=module',
    '-e',
    `const { startSandbox, demoKey } = await import(${JSON.stringify(join(root, 'dist/sandbox.js'))});
     const fast = await startSandbox();
     const slow = await startSandbox({ latencyMs: ${LATENCY_MS} });
     // export --profiles (issue 28): its own sandbox, so its many refusals lock nothing else out.
     const fanout = await startSandbox({ latencyMs: ${LATENCY_MS} });
     // Large answers: GET /<MiB>/api/v1/tenders is 200 tenders whose briefing notes fill the body
     // to that size (the same bytes every time, built once per size).
     const { createServer } = await import('node:http');
     const bodies = new Map();
     const large = (mib) => {
       if (!bodies.has(mib)) {
         const note = 'Site visit at the works, bring CIDB certificate. '.repeat(Math.ceil((mib * 1048576) / 200 / 49)).slice(0, Math.floor((mib * 1048576) / 200) - 400);
         const rows = Array.from({ length: 200 }, (_, i) => JSON.stringify({ ocid: 'ocds-9t57fa-' + i, title: 'Upgrade of stormwater works, phase ' + i, buyer: 'City of Cape Town', province: 'Western Cape', closesOn: '2026-12-01', runwayDays: 9, score: 80, tier: 'RECOMMENDED', reasons: ['CIDB 6CE held'], briefingNote: note, decision: null, analysisRunId: null, docCount: 3 }));
         bodies.set(mib, Buffer.from('[' + rows.join(',') + ']'));
       }
       return bodies.get(mib);
     };
     const big = createServer((req, res) => {
       res.writeHead(200, { 'Content-Type': 'application/json' });
       res.end(large(Number(req.url.split('/')[1])));
     });
     await new Promise((resolve) => big.listen(0, '127.0.0.1', resolve));
     // Eight lists of 15.6 MB each, and the same with every row changed (scripts/large-lists.mjs).
     const { startLargeLists } = await import(${JSON.stringify(join(root, 'scripts/large-lists.mjs'))});
     const [largeA, largeB] = [await startLargeLists(() => 'a'), await startLargeLists(() => 'b')];
     console.log(JSON.stringify({ fast: fast.url, slow: slow.url, fanout: fanout.url, big: 'http://127.0.0.1:' + big.address().port, largeA: largeA.url, largeB: largeB.url, key: demoKey('all'), revoked: demoKey('revoked') }));`,
  ],
  { stdio: ['ignore', 'pipe', 'inherit'] },
);
process.once('exit', () => sandboxes.kill());
const [line] = await once(createInterface({ input: sandboxes.stdout }), 'line');
const { fast, slow, fanout, big, largeA, largeB, key, revoked } = JSON.parse(line);
const configDir = join(work, 'config');
mkdirSync(configDir);
const bin = join(root, 'bin/cdata.js');
const inherited = CLEAN_ENV ? { PATH: process.env.PATH, HOME: process.env.HOME } : { ...process.env };
for (const name of Object.keys(inherited)) if (name.startsWith('CDATA_')) delete inherited[name];
const env = (url) => ({ ...inherited, CDATA_CONFIG_DIR: configDir, CDATA_BASE_URL: url, CDATA_API_KEY: key });

const baseline = { name: 'node -e 0', args: ['-e', '0'], env: env(fast) };
const allCases = [
  { name: 'cdata --version', args: [bin, '--version'], env: env(fast), target: 1.2 },
  { name: 'cdata completion bash', args: [bin, 'completion', 'bash'], env: env(fast) },
  { name: 'cdata __complete profiles (each TAB)', args: [bin, '__complete', 'profiles'], env: env(fast) },
  { name: 'cdata tenders -o json', args: [bin, 'tenders', '-o', 'json'], env: env(fast), target: 1.5 },
  { name: '  floor: undici alone, one GET', args: [join(work, 'floor/undici-get.cjs')], env: env(fast) },
  {
    name: '  floor: commander + undici GET',
    args: [join(work, 'floor/commander-undici-get.cjs'), 'tenders', '-o', 'json'],
    env: env(fast),
  },
  {
    name: 'cdata obligations --limit 200 -o csv',
    args: [bin, 'obligations', '--limit', '200', '-o', 'csv'],
    env: env(fast),
  },
  {
    name: `cdata tenders -o json (${LATENCY_MS} ms latency)`,
    args: [bin, 'tenders', '-o', 'json'],
    env: env(slow),
    extraBaselineMs: LATENCY_MS,
  },
  {
    name: `cdata export (all lists, ${LATENCY_MS} ms latency)`,
    args: [bin, 'export', '--dir', join(work, 'export'), '-q'],
    env: env(slow),
    // "One request's time plus start-up": a single cdata request against the same sandbox.
    target: 1.3,
    reference: `cdata tenders -o json (${LATENCY_MS} ms latency)`,
    extraBaselineMs: LATENCY_MS,
  },
  // Peak memory for the largest answers (docs/limits.md): one just under the 16 MiB body cap,
  // printed, and one of 30 MiB, refused at the cap with exit 7.
  {
    name: 'cdata tenders -o json (15.9 MiB answer)',
    args: [bin, 'tenders', '-o', 'json', '--limit', '200'],
    env: env(`${big}/15.9`),
    rssTargetMiB: 192,
  },
  {
    name: 'cdata tenders -o json (30 MiB: over the cap)',
    args: [bin, 'tenders', '-o', 'json', '--limit', '200'],
    env: env(`${big}/30`),
    exitCode: 7,
    rssTargetMiB: 192,
  },
  // --query evaluates in a worker thread (docs/query.md#bounds), started before the request: its
  // cost over the same command without --query, and its peak over the largest answer.
  {
    name: 'cdata tenders -o json --query (worker)',
    args: [bin, 'tenders', '-o', 'json', '--query', '[?score > `80`].ocid'],
    env: env(fast),
    reference: 'cdata tenders -o json',
  },
  {
    name: "cdata tenders --query '@' (15.9 MiB answer)",
    args: [bin, 'tenders', '-o', 'json', '--limit', '200', '--query', '@'],
    env: env(`${big}/15.9`),
    rssTargetMiB: 320,
  },
];

// export --profiles: [profiles, measured runs] (each run of 200 takes ~20 s).
const FANOUT = {
  sizes: [
    [50, 3],
    [200, 1],
  ],
  revoked: [7, 23, 41],
  concurrency: 16,
  rssTargetMiB: 128,
};

// A case chosen with --only brings the case its ratio is against (`reference`), which it needs.
const chosen = allCases.filter((c) => named(c.name));
const cases = allCases.filter((c) => chosen.includes(c) || chosen.some((d) => d.reference === c.name));

/** Ratios between two rows, each with its target (issue 17: cdata's own work within 10% of the stack's). */
const COMPARISONS = [{ of: 'cdata tenders -o json', against: '  floor: commander + undici GET', target: 1.1 }];

function timeOnce(command, node) {
  const started = process.hrtime.bigint();
  const result = spawnSync(node.path, command.args, { env: command.env, stdio: ['ignore', 'ignore', 'pipe'] });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== (command.exitCode ?? 0))
    throw new Error(`${command.name} exited ${result.status}: ${result.stderr}`);
  return ms;
}

/** Peak RSS in KiB, from GNU time's %M (the child's own maximum resident set). */
function peakRss(command, node) {
  // stdout ignored: a large answer would overflow spawnSync's buffer and kill the run.
  const result = spawnSync('/usr/bin/time', ['-f', '%M', node.path, ...command.args], {
    env: command.env,
    encoding: 'utf8',
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const kib = Number(result.stderr.trim().split('\n').at(-1));
  return Number.isFinite(kib) ? kib : undefined;
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

/** Every case on one Node line, alternating with that line's node -e 0: its rows and comparisons. */
async function measure(node) {
  const samples = new Map([baseline, ...cases].map((c) => [c.name, []]));
  for (let i = 0; i < WARMUP + RUNS; i++) {
    // Alternate: the baseline before every case, so drift and noise affect both alike.
    for (const command of cases) {
      const base = timeOnce(baseline, node);
      const ms = timeOnce(command, node);
      if (i >= WARMUP) {
        samples.get(baseline.name).push(base);
        samples.get(command.name).push(ms);
      }
      // spawnSync holds the event loop: let a pending Ctrl-C or SIGTERM in between measurements, so
      // the bench stops at once, and its work folder goes with it (temp-folder.mjs).
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  const baseMs = median(samples.get(baseline.name));
  const rows = [baseline, ...cases].map((command) => {
    const ms = median(samples.get(command.name));
    // Against node -e 0 (plus the latency for the slow sandbox), and for export also against one
    // cdata request to the same sandbox, which is what its target names.
    const nodeReference = baseMs + (command.extraBaselineMs ?? 0);
    const reference = command.reference ? median(samples.get(command.reference)) : nodeReference;
    const rss = Math.max(...[1, 2, 3].map(() => peakRss(command, node) ?? 0));
    return {
      name: command.name,
      medianMs: Number(ms.toFixed(1)),
      ratio: Number((ms / reference).toFixed(2)),
      against:
        command.reference ?? (command.extraBaselineMs ? `node -e 0 + ${command.extraBaselineMs} ms` : 'node -e 0'),
      ratioToNode: Number((ms / nodeReference).toFixed(2)),
      target: command.target,
      met: command.target === undefined ? undefined : ms / reference <= command.target,
      peakRssMiB: Number((rss / 1024).toFixed(1)),
      rssMet: rss / 1024 <= (command.rssTargetMiB ?? 64),
    };
  });

  const comparisons = [];
  const pad = (text, width) => String(text).padEnd(width);
  const version = execFileSync(node.path, ['--version'], { encoding: 'utf8' }).trim();
  console.log(
    `\nNode ${version}: ${RUNS} runs each (after ${WARMUP} warm-up), alternating with node -e 0; medians; ${CLEAN_ENV ? 'clean environment' : "this shell's environment"}.\n`,
  );
  console.log(
    `${pad('command', 46)}${pad('median', 11)}${pad('vs node', 9)}${pad('ratio', 8)}${pad('target', 10)}${pad('peak RSS', 11)}`,
  );
  for (const row of rows) {
    const target = row.target === undefined ? '' : `<=${row.target}${row.met ? '' : ' !'}`;
    const ratio = row.against === 'node -e 0' || row.against.startsWith('node -e 0 +') ? '' : `${row.ratio}x`;
    console.log(
      `${pad(row.name, 46)}${pad(`${row.medianMs} ms`, 11)}${pad(`${row.ratioToNode}x`, 9)}${pad(ratio, 8)}${pad(target, 10)}${pad(`${row.peakRssMiB} MiB${row.rssMet ? '' : ' !'}`, 11)}`,
    );
  }
  for (const { of, against, target } of COMPARISONS) {
    const [a, b] = [of, against].map((name) => rows.find((row) => row.name === name));
    if (!a || !b) continue;
    const ratio = Number((a.medianMs / b.medianMs).toFixed(2));
    const verdict = target === undefined ? '' : `  target <=${target}${ratio <= target ? '' : ' !'}`;
    console.log(`${of} / ${against.trim()}: ${ratio}x${verdict}`);
    comparisons.push({
      of,
      against: against.trim(),
      ratio,
      target,
      met: target === undefined ? undefined : ratio <= target,
    });
  }
  return { node: version, rows, comparisons };
}

const lines = [];
if (cases.length > 0) for (const node of NODES) lines.push(await measure(node));
const fanoutRows = named('export --profiles') ? measureFanout() : [];

// Peak memory of large exports (issue 29, docs/limits.md): eight lists of 15.6 MB each exported,
// then exported again with every row changed, then `cdata changes` over that; once each (an
// export of them takes seconds: not timed).
const large = [];
if (named('large export') || ONLY.some((text) => text.includes('large'))) {
  const dir = join(work, 'large');
  const steps = [
    {
      name: 'cdata export (8 lists of 15.6 MB)',
      args: [bin, 'export', '--dir', dir, '-q'],
      env: env(largeA),
      rssTargetMiB: 256,
    },
    {
      name: 'cdata export (the same, every row changed)',
      args: [bin, 'export', '--dir', dir, '-q'],
      env: env(largeB),
      rssTargetMiB: 256,
    },
    {
      name: 'cdata changes -o ndjson (1,600 changes, 375 MB)',
      args: [bin, 'changes', '--dir', dir, '-o', 'ndjson'],
      env: env(largeB),
      rssTargetMiB: 128,
    },
    {
      name: 'cdata changes (tsv, the same)',
      args: [bin, 'changes', '--dir', dir],
      env: env(largeB),
      rssTargetMiB: 128,
    },
  ];
  for (const step of steps) {
    const rss = peakRss(step, NODES[0]) ?? 0;
    large.push({
      name: step.name,
      peakRssMiB: Number((rss / 1024).toFixed(1)),
      rssTargetMiB: step.rssTargetMiB,
      rssMet: rss / 1024 <= step.rssTargetMiB,
    });
  }
}

sandboxes.kill();

const comparisons = [];
const pad = (text, width) => String(text).padEnd(width);
for (const row of fanoutRows) {
  const verdict = (met) => (met ? '' : ' !');
  console.log(
    `${row.name}: ${row.requests} requests, median ${row.medianMs} ms = ${row.ratio}x of (requests / ${FANOUT.concurrency}) x ${LATENCY_MS} ms (target <=1.3${verdict(row.met)}); peak RSS ${row.peakRssMiB} MiB (target <=${FANOUT.rssTargetMiB}${verdict(row.rssMet)})`,
  );
  console.log(
    `  floor: undici alone, the same requests ${FANOUT.concurrency} at a time: ${row.undiciFloorMs} ms; cdata / floor: ${row.ratioToUndiciFloor}x`,
  );
}
if (fanoutRows.length === 2) {
  const [small, large] = fanoutRows;
  const growth = Number((large.peakRssMiB / small.peakRssMiB).toFixed(2));
  const met = growth <= 1.1;
  console.log(
    `export --profiles peak RSS, ${large.profiles} / ${small.profiles} profiles: ${growth}x (target <=1.1${met ? '' : ' !'})`,
  );
  comparisons.push({ of: large.name, against: small.name, measure: 'peak RSS', ratio: growth, target: 1.1, met });
}
for (const row of large)
  console.log(
    `${pad(row.name, 46)}${pad('', 38)}${pad(`${row.peakRssMiB} MiB${row.rssMet ? '' : ' !'}`, 11)} (target ${row.rssTargetMiB} MiB)`,
  );
console.log(`
vs node: median / median of node -e 0 on the same Node line (plus ${LATENCY_MS} ms for the cases against the slow sandbox).
ratio: export / one cdata request to the same slow sandbox ("one request plus start-up").
target: against ratio where shown, else vs node; "!" marks a miss (peak RSS target: 64 MiB; 192 MiB for the large answers, docs/limits.md).
floor: the same GET with no cdata code, bundled the same way (scripts/floor).`);

const commit = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).stdout.trim();
mkdirSync(join(root, 'bench-results'), { recursive: true });
const report = {
  date: new Date().toISOString(),
  commit,
  runs: RUNS,
  environment: CLEAN_ENV ? 'clean' : 'inherited',
  lines,
  fanout: fanoutRows,
  large,
  comparisons,
};
const file = `bench-results/latest${CLEAN_ENV ? '-clean-env' : ''}.json`;
writeFileSync(join(root, file), `${JSON.stringify(report, null, 2)}\n`);
console.log(`written: ${file}`);

/**
 * export --profiles (issue 28): N profiles, 3 of them with the revoked key, against a sandbox
 * answering after LATENCY_MS, 16 requests at a time. Wall time against the floor the budget
 * allows, (requests / 16) x latency; peak RSS, which must not grow with the number of profiles.
 * Each size: one run to make the folders (baselines), then runs into them as cron would repeat
 * it (each compares with the last), one process at a time.
 */
function measureFanout() {
  const rows = [];
  for (const [profiles, runs] of FANOUT.sizes) {
    const config = join(work, `fanout-config-${profiles}`);
    mkdirSync(config);
    const entries = Array.from({ length: profiles }, (_, i) => {
      const name = `client-${String(i + 1).padStart(4, '0')}`;
      return [name, { baseUrl: fanout, key: FANOUT.revoked.includes(i + 1) ? revoked : key }];
    });
    writeFileSync(join(config, 'config.json'), JSON.stringify({ profiles: Object.fromEntries(entries) }), {
      mode: 0o600,
    });
    const dir = join(work, `fanout-${profiles}`);
    const name = `cdata export --profiles (${profiles} profiles, ${FANOUT.revoked.length} revoked, ${LATENCY_MS} ms latency, ${FANOUT.concurrency} at a time)`;
    const args = [bin, 'export', '--all-profiles', '--dir', dir, '--concurrency', String(FANOUT.concurrency), '-q'];
    const fanoutEnv = { ...inherited, CDATA_CONFIG_DIR: config };
    const samples = [];
    const rss = [];
    for (let i = 0; i <= runs; i++) {
      const started = process.hrtime.bigint();
      const result = spawnSync('/usr/bin/time', ['-f', '%M', process.execPath, ...args], {
        env: fanoutEnv,
        encoding: 'utf8',
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const record = JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8'));
      if (
        result.status !== 10 ||
        record.counts.ok !== profiles - FANOUT.revoked.length ||
        record.counts.failed !== FANOUT.revoked.length
      ) {
        throw new Error(`${name} exited ${result.status} with ${JSON.stringify(record.counts)}: ${result.stderr}`);
      }
      if (i === 0) continue; // the baselines
      samples.push(ms);
      rss.push(Number(result.stderr.trim().split('\n').at(-1)));
    }
    const requests = (profiles - FANOUT.revoked.length) * 8 + FANOUT.revoked.length;
    const floorMs = (requests / FANOUT.concurrency) * LATENCY_MS;
    const ms = median(samples);
    // The same requests from undici alone, timed alike: what this machine's load allows.
    const undici = median(
      Array.from({ length: runs }, () => {
        const started = process.hrtime.bigint();
        const floor = spawnSync(
          process.execPath,
          [join(root, 'scripts/floor/undici-fanout.mjs'), fanout, key, String(requests), String(FANOUT.concurrency)],
          { stdio: 'ignore' },
        );
        if (floor.status !== 0) throw new Error(`the undici fan-out floor exited ${floor.status}`);
        return Number(process.hrtime.bigint() - started) / 1e6;
      }),
    );
    const peak = Math.max(...rss) / 1024;
    rows.push({
      name,
      profiles,
      requests,
      runs,
      medianMs: Number(ms.toFixed(0)),
      floorMs,
      ratio: Number((ms / floorMs).toFixed(2)),
      met: ms / floorMs <= 1.3,
      peakRssMiB: Number(peak.toFixed(1)),
      rssMet: peak <= FANOUT.rssTargetMiB,
      undiciFloorMs: Number(undici.toFixed(0)),
      ratioToUndiciFloor: Number((ms / undici).toFixed(2)),
    });
  }
  return rows;
}
