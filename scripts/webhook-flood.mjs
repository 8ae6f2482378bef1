// Many slow webhook deliveries held open at once against `cdata webhook listen` (the built
// binary), and its peak memory: what docs/limits.md quotes for the receiver, and what
// test/webhook/flood.heavy.test.ts holds it to. Not a test: it prints what it measured.
//
//   node scripts/webhook-flood.mjs [--count N] [--kib N]
//
// Each sender opens its connection, sends the headers of a POST with Content-Length N KiB and
// then all of the body but its last byte, and waits: the receiver holds what it has read until it
// answers (a 503 when it holds too much already, a 408 once the sender has had its 5 s). When
// every sender has its answer (or its connection closed), a signed ping is sent, and the
// receiver's peak resident memory (VmHWM) read from /proc.
import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { once } from 'node:events';
import { request } from 'node:http';
import { connect } from 'node:net';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../bin/cdata.js', import.meta.url));
export const FLOOD_SECRET = 'whsec_floodfloodfloodfloodflood0123';

/**
 * `count` deliveries of `bytes` each, all open at once, none finished. Resolves, once every one has
 * been answered or closed, with each one's outcome: the status line and headers it got, or
 * `closed` (no answer at all).
 */
export async function flood(url, { count, bytes }) {
  const { hostname, port, pathname } = new URL(url);
  const body = Buffer.alloc(bytes - 1, 'x');
  const head = `POST ${pathname} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nContent-Type: application/json\r\nContent-Length: ${bytes}\r\n\r\n`;
  const one = () =>
    new Promise((resolve) => {
      const socket = connect(Number(port), hostname);
      let answer = '';
      socket.setEncoding('latin1');
      socket.on('connect', () => {
        socket.write(head);
        socket.write(body);
      });
      socket.on('data', (chunk) => {
        answer += chunk;
        // Answered: a sender hangs up (the receiver would read and drop the rest of the body).
        if (answer.includes('\r\n\r\n')) socket.destroy();
      });
      socket.on('error', () => undefined); // a reset once answered, or a connection refused: see below
      socket.on('close', () => resolve(answer === '' ? 'closed' : answer.split('\r\n\r\n')[0]));
    });
  return Promise.all(Array.from({ length: count }, one));
}

/** POSTs a ping signed with FLOOD_SECRET; resolves with the status. */
export function signedPing(url) {
  const body = JSON.stringify({ type: 'ping', timestamp: new Date().toISOString() });
  const signature = createHmac('sha256', FLOOD_SECRET).update(body).digest('hex');
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Service-Signature': signature } },
      (res) => {
        res.resume();
        resolve(res.statusCode);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** `cdata webhook listen` on a free port: its process, its URL, and what it has written. */
export async function startListener(env = {}) {
  const child = spawn(process.execPath, [BIN, 'webhook', 'listen', '--port', '0', '--secret-env', 'FLOOD_SECRET'], {
    env: { PATH: process.env.PATH ?? '', FLOOD_SECRET, CDATA_CONFIG_DIR: '/nonexistent-cdata-config', ...env },
  });
  const out = { stdout: '', stderr: '' };
  child.stdout.setEncoding('utf8').on('data', (c) => (out.stdout += c));
  child.stderr.setEncoding('utf8').on('data', (c) => (out.stderr += c));
  const listening = /listening for deliveries on (\S+)/;
  while (!listening.test(out.stderr)) {
    const [ended] = await Promise.race([
      once(child.stderr, 'data').then(() => [false]),
      once(child, 'exit').then(() => [true]),
    ]);
    if (ended) throw new Error(`webhook listen ended: ${out.stderr}`);
  }
  return {
    child,
    url: listening.exec(out.stderr)[1],
    out,
    /** Its peak resident memory so far, in MiB (Linux: VmHWM in /proc/PID/status). */
    peakMiB: () => Number(/^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))[1]) / 1024,
    async stop() {
      child.kill('SIGINT');
      if (child.exitCode === null && child.signalCode === null) await once(child, 'exit');
    },
  };
}

/** How many outcomes had each status (`closed`: no answer). */
export function tally(outcomes) {
  const counts = {};
  for (const outcome of outcomes) {
    const status = outcome === 'closed' ? 'closed' : outcome.split(' ')[1];
    counts[status] = (counts[status] ?? 0) + 1;
  }
  return counts;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const flag = (name, fallback) =>
    process.argv.includes(name) ? Number(process.argv[process.argv.indexOf(name) + 1]) : fallback;
  const count = flag('--count', 300);
  const kib = flag('--kib', 1024);
  const listener = await startListener();
  try {
    const idle = listener.peakMiB();
    const started = Date.now();
    const outcomes = await flood(listener.url, { count, bytes: kib * 1024 });
    const held = Date.now() - started;
    const ping = await signedPing(listener.url);
    console.log(
      `${count} deliveries of ${kib} KiB held at once: answers ${JSON.stringify(tally(outcomes))} within ${(held / 1000).toFixed(1)} s`,
    );
    console.log(`a signed ping afterwards: HTTP ${ping}`);
    console.log(`webhook listen peak RSS: ${listener.peakMiB().toFixed(1)} MiB (idle: ${idle.toFixed(1)} MiB)`);
  } finally {
    await listener.stop();
  }
}
