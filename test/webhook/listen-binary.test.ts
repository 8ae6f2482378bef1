// `cdata webhook listen` as a user runs it: a real process, a real ping, Ctrl-C to stop.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { expect, it } from 'vitest';
import { run } from '../helpers/run.js';
import { BIN } from '../helpers/spawn.js';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

it('receives a ping, prints it as a JSON line, and stops on SIGINT; the secret is never printed', async () => {
  const child = spawn(process.execPath, [BIN, 'webhook', 'listen', '--port', '0', '--secret-env', 'S'], {
    env: { PATH: process.env.PATH ?? '', S: SECRET, CDATA_CONFIG_DIR: '/nonexistent-cdata-config' },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  while (!/listening for deliveries on (\S+)/.test(stderr)) await once(child.stderr, 'data');
  const url = /listening for deliveries on (\S+)/.exec(stderr)![1]!;
  expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);

  const ping = await run(['webhook', 'ping', url, '--secret-env', 'S'], { env: { S: SECRET } });
  expect(ping.code).toBe(0);
  while (!stdout.includes('\n')) await once(child.stdout, 'data');
  expect(JSON.parse(stdout.trim())).toMatchObject({ type: 'ping' });

  child.kill('SIGINT');
  const [code] = (await once(child, 'close')) as [number];
  expect(code).toBe(130);
  expect(stdout + stderr).not.toContain(SECRET.slice(6));
});

it('--path without its leading / is the path a receiver URL gives; an empty one or one with a query is exit 2', async () => {
  const child = spawn(
    process.execPath,
    [BIN, 'webhook', 'listen', '--port', '0', '--path', 'hooks/in', '--secret-env', 'S'],
    { env: { PATH: process.env.PATH ?? '', S: SECRET, CDATA_CONFIG_DIR: '/nonexistent-cdata-config' } },
  );
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  while (!/listening for deliveries on (\S+)/.test(stderr)) await once(child.stderr, 'data');
  const url = /listening for deliveries on (\S+)/.exec(stderr)![1]!;
  expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/hooks\/in$/);
  expect((await run(['webhook', 'ping', url, '--secret-env', 'S'], { env: { S: SECRET } })).code).toBe(0);
  child.kill('SIGINT');
  await once(child, 'close');

  for (const path of ['', '/hooks?x=1', 'two words'])
    expect(await run(['webhook', 'listen', '--path', path, '--secret-env', 'S'], { env: { S: SECRET } })).toMatchObject(
      {
        code: 2,
        stderr: `error: --path must be a path alone, e.g. /hooks (got '${path}')\n`,
      },
    );
});

/** `cdata webhook listen` with stdout as `stdout` gives it; its URL once it listens. */
async function listening(stdout: 'full disk' | 'pipe') {
  const env = { PATH: process.env.PATH ?? '', S: SECRET, CDATA_CONFIG_DIR: '/nonexistent-cdata-config' };
  const args = [BIN, 'webhook', 'listen', '--port', '0', '--secret-env', 'S'];
  const child =
    stdout === 'pipe'
      ? spawn(process.execPath, args, { env })
      : spawn('sh', ['-c', 'exec "$@" > /dev/full', 'sh', process.execPath, ...args], { env });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  while (!/listening for deliveries on (\S+)/.test(stderr)) await once(child.stderr, 'data');
  const closed = once(child, 'close') as Promise<[number]>;
  return { child, url: /listening for deliveries on (\S+)/.exec(stderr)![1]!, closed, stderr: () => stderr };
}

const pinged = async (url: string) =>
  JSON.parse((await run(['webhook', 'ping', url, '--secret-env', 'S', '-o', 'json'], { env: { S: SECRET } })).stdout);

it('an event it cannot print (stdout on a full disk) is not acknowledged: 500 to the sender, said, then exit 2', async () => {
  const { url, closed, stderr } = await listening('full disk');
  expect(await pinged(url)).toMatchObject({ status: 500, statusText: 'Internal Server Error' });
  const [code] = await closed;
  expect(code).toBe(2);
  expect(stderr().split('\n').slice(1)).toEqual([
    'rejected 500 from 127.0.0.1: the event could not be recorded (ENOSPC: no space left on device, write)',
    'error: cannot write the output: ENOSPC: no space left on device, write',
    '',
  ]);
});

it('nor is one whose reader has gone (a closed pipe): 500, said, then exit 0 as for any closed pipe', async () => {
  const { child, url, closed, stderr } = await listening('pipe');
  child.stdout.destroy();
  expect(await pinged(url)).toMatchObject({ status: 500 });
  const [code] = await closed;
  expect(code).toBe(0);
  expect(stderr().split('\n').slice(1)).toEqual([
    'rejected 500 from 127.0.0.1: the event could not be recorded (write EPIPE)',
    '',
  ]);
});
