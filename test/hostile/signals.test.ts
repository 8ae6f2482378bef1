// The built binary against a server sending bodies built to be slow to parse: SIGTERM, sent once
// cdata says (--debug) that it holds the whole answer, ends it within a second or so. (The
// number scan that was quadratic kept the one thread busy for minutes from that moment, and
// signal handlers, being JavaScript, never ran; only SIGKILL stopped it.)
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it, onTestFinished } from 'vitest';
const MAX_BODY_BYTES = 16 * 1024 * 1024;
import { BIN } from '../helpers/spawn.js';
import { useFolders } from './folders.js';
import { answer, unterminatedEscapes, useHostileServers } from './server.js';

const serve = useHostileServers();
const folder = useFolders();

/**
 * Starts cdata against `url` with --debug; `received` resolves when its trace says the answer
 * is in, `stop()` sends SIGTERM and resolves with how it ended and how fast.
 */
function start(url: string, argv: string[]) {
  const child = spawn(process.execPath, [BIN, ...argv, '--debug'], {
    env: {
      PATH: process.env.PATH ?? '',
      CDATA_BASE_URL: url,
      CDATA_API_KEY: 'svc_SignalsTestKey0123456789',
      CDATA_CONFIG_DIR: folder(),
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  let onAnswer: () => void;
  const received = new Promise<void>((resolve) => (onAnswer = resolve));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
    if (/\[debug\] < HTTP \d+ in /.test(stderr)) onAnswer();
  });
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  // Never left behind, whatever the test decides (a busy cdata would run on for minutes).
  onTestFinished(() => void (child.exitCode === null && child.signalCode === null && child.kill('SIGKILL')));
  return {
    received,
    async stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null; ms: number; stderr: string }> {
      const sent = Date.now();
      child.kill('SIGTERM');
      // Deaf to SIGTERM: SIGKILL after a while, and the time says so.
      const deaf = setTimeout(() => child.kill('SIGKILL'), 10_000);
      const [code, signal] = await exited;
      clearTimeout(deaf);
      return { code, signal, ms: Date.now() - sent, stderr };
    },
  };
}

describe('SIGTERM ends cdata within a second, whatever the body', () => {
  it.each([
    ['a 500 of `"` and 500,000 escaped quotes (1 MB)', 500, unterminatedEscapes(500_000), 6, 1_500],
    ['a 500 of the same cut to the 64 KiB error cap', 500, unterminatedEscapes(32 * 1024 - 1), 6, 1_500],
    ['a 200 of `"` and 500,000 escaped quotes (1 MB)', 200, unterminatedEscapes(500_000), 7, 1_500],
    // Scanned and parsed once in about half a second on a quiet machine; the bound leaves room
    // for a busy one (the quadratic scan took minutes).
    [
      `a 200 of the same, as large as the ${MAX_BODY_BYTES / 1024 / 1024} MiB cap allows`,
      200,
      unterminatedEscapes(MAX_BODY_BYTES / 2 - 1),
      7,
      5_000,
    ],
  ])('%s', async (_what, status, body, code, bound) => {
    const server = await serve(answer(status, body));
    const cdata = start(server.url, ['tenders', '--timeout', '5', '--retries', '0']);
    await cdata.received;
    const ended = await cdata.stop();
    // 143 from the handler; had cdata ended on its own first, quickly, with its own exit code; or,
    // when the signal came while Node was already shutting down (its JavaScript handlers gone),
    // the signal's own death. Each is prompt; deaf would be SIGKILL at 10 s, caught by the bound.
    expect([143, code, 'SIGTERM'], ended.stderr).toContain(ended.code ?? ended.signal);
    expect(ended.ms).toBeLessThan(bound);
  });
});
