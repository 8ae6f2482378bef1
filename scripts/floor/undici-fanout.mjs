// Bench floor for export --profiles: undici alone sending N GETs of the export's lists, C at a
// time over one agent, each body read and dropped. No config, no files, no rendering: under the
// same machine load, how close to (N / C) x latency the stack itself gets.
//
//   node scripts/floor/undici-fanout.mjs BASE_URL KEY N C
import Agent from 'undici/lib/dispatcher/agent.js';
import request from 'undici/lib/api/api-request.js';

const [base, key, total, concurrency] = process.argv.slice(2);
const paths = [
  'workspaces',
  'graph/companies?limit=200',
  'graph/documents?limit=200',
  'graph/obligations?limit=200',
  'graph/persons?limit=200',
  'graph/sites?limit=200',
  'tenders?limit=200',
  'agents',
];
const agent = new Agent({ connections: Number(concurrency) });
let next = 0;
const worker = async () => {
  while (next < Number(total)) {
    const url = new URL(`${base}/api/v1/${paths[next++ % paths.length]}`);
    const response = await request.call(agent, {
      origin: url.origin,
      path: `${url.pathname}${url.search}`,
      method: 'GET',
      headers: { 'x-api-key': key },
    });
    await response.body.text();
  }
};
await Promise.all(Array.from({ length: Number(concurrency) }, worker));
await agent.destroy();
