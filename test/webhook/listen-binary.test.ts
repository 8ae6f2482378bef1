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

it('an event it cannot print (stdout on a full disk) is not acknowledged: 500 to the sender, then exit 2', async () => {
  const child = spawn(
    'sh',
    ['-c', `exec "$0" "$1" webhook listen --port 0 --secret-env S > /dev/full`, process.execPath, BIN],
    {
      env: { PATH: process.env.PATH ?? '', S: SECRET, CDATA_CONFIG_DIR: '/nonexistent-cdata-config' },
    },
  );
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  while (!/listening for deliveries on (\S+)/.test(stderr)) await once(child.stderr, 'data');
  const url = /listening for deliveries on (\S+)/.exec(stderr)![1]!;
  const closed = once(child, 'close');

  const ping = await run(['webhook', 'ping', url, '--secret-env', 'S', '-o', 'json'], { env: { S: SECRET } });
  expect(JSON.parse(ping.stdout)).toMatchObject({ status: 500, statusText: 'Internal Server Error' });
  const [code] = (await closed) as [number];
  expect(code).toBe(2);
  expect(stderr).toContain('error: cannot write the output: ENOSPC');
});
