// Bench floor: the least a CLI on undici can do for `tenders -o json`. Bundled like cdata
// (undici's agent and request modules, llhttp kept on the baseline wasm compiler with the flags
// bin/start-up.cjs sets for it), one GET, the body to stdout.
// No argument parsing, no config, no rendering: what the stack alone costs.
import { setFlagsFromString } from 'node:v8';
import Agent from 'undici/lib/dispatcher/agent.js';
import request from 'undici/lib/api/api-request.js';
import { LIFTOFF_ONLY } from '../../bin/start-up.cjs';

export async function get() {
  setFlagsFromString(LIFTOFF_ONLY.join(' '));
  const agent = new Agent();
  const url = new URL(`${process.env.CDATA_BASE_URL}/api/v1/tenders?limit=100`);
  const response = await request.call(agent, {
    origin: url.origin,
    path: `${url.pathname}${url.search}`,
    method: 'GET',
    headers: { 'x-api-key': process.env.CDATA_API_KEY },
  });
  process.stdout.write(await response.body.text());
  await agent.destroy();
}
