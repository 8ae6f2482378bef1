// Signing secrets with non-ASCII and unusual characters work end to end (the HMAC key is the
// secret's UTF-8, the same in verify, listen, ping and check), bytes that are not UTF-8 are
// refused rather than signed with U+FFFD, and a receiver that echoes the secret (in a Location)
// never gets it printed: not in a table, not in JSON.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { Receiver } from '../../src/webhook/receiver.js';
import { sign } from '../../src/webhook/signature.js';
import { useFolders } from '../hostile/folders.js';
import { startTestReceiver } from '../helpers/receiver.js';
import { run } from '../helpers/run.js';

const TAIL = 'tailWHSEC77';
const SECRETS: [string, string][] = [
  ['non-ASCII letters and an emoji', `whsec_Ünïcödé王😀${TAIL}`],
  ['quotes, a backtick, a comma, a semicolon and a backslash', `whsec_a"b'c\`d,e;f\\g${TAIL}`],
  ['a zero-width space', `whsec_zero\u200bwidth${TAIL}`],
];

const folder = useFolders();
const open: (Server | Receiver)[] = [];
afterEach(async () => {
  await Promise.all(
    open
      .splice(0)
      .map((s) => ('url' in s ? s.close() : new Promise<void>((r) => (s.closeAllConnections(), s.close(() => r()))))),
  );
});

function secretFile(content: string | Buffer): string {
  const path = join(folder(), 'secret');
  writeFileSync(path, content);
  return path;
}

const event = () => `{"type":"ping","timestamp":"${new Date().toISOString()}","amount":1250000.00}`;

function expectSecretHidden(result: { stdout: string; stderr: string }): void {
  expect(`${result.stdout}${result.stderr}`).not.toContain(TAIL);
}

describe.each(SECRETS)('a secret with %s', (_what, secret) => {
  const env = { S: secret };

  it('verify: from the environment, a file or stdin, the same HMAC key', async () => {
    const body = event();
    const signature = sign(secret, body);
    for (const [args, stdin] of [
      [['--secret-env', 'S'], body],
      [['--secret-file', secretFile(`${secret}\n`)], body],
      [['--body-file', secretFile(body)], secret],
    ] as [string[], string][]) {
      const result = await run(['webhook', 'verify', '--signature', signature, ...args], { env, stdin });
      expect(result.code, result.stderr).toBe(0);
      // Numbers as the sender wrote them.
      expect(result.stdout).toBe(`${body}\n`);
      expectSecretHidden(result);
    }
  });

  it('ping and check against a receiver with the same secret: all pass', async () => {
    const { receiver } = await startTestReceiver(secret);
    open.push(receiver);
    const ping = await run(['webhook', 'ping', receiver.url, '--secret-env', 'S'], { env });
    expect(ping.code, ping.stderr).toBe(0);
    const check = await run(['webhook', 'check', receiver.url, '--secret-env', 'S', '-o', 'json'], { env });
    expect(check.code, check.stderr).toBe(0);
    expect((JSON.parse(check.stdout) as { pass: boolean }[]).every((row) => row.pass)).toBe(true);
    expectSecretHidden(ping);
    expectSecretHidden(check);
  });

  it('a receiver that echoes the secret in its Location: never printed, JSON still parses', async () => {
    const server = createServer((req, res) => {
      req.resume();
      res.writeHead(302, { Location: `https://elsewhere.example/?s=${encodeURIComponent(secret)}` }).end();
    });
    open.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
    for (const args of [
      ['ping', url],
      ['ping', url, '-o', 'json'],
      ['check', url],
      ['check', url, '-o', 'json'],
    ]) {
      const result = await run(['webhook', ...args, '--secret-env', 'S'], { env });
      expect(result.code).toBe(1);
      expectSecretHidden(result);
      if (args.includes('json')) expect(() => JSON.parse(result.stdout)).not.toThrow();
    }
  });
});

describe('secret files that are not what they seem', () => {
  it('bytes that are not UTF-8: exit 2 (decoded, they would sign with another key)', async () => {
    const body = event();
    const result = await run(
      [
        'webhook',
        'verify',
        '--signature',
        sign('x', body),
        '--secret-file',
        secretFile(Buffer.from([0x77, 0x68, 0xff, 0xfe])),
      ],
      { stdin: body },
    );
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toMatch(
      /^error: the secret file .* is not UTF-8 text: the signing secret is used as UTF-8, and these bytes have no UTF-8 reading$/,
    );
  });

  it('a byte order mark (a Windows editor) is kept, with a warning', async () => {
    const secret = '\ufeffwhsec_SavedByNotepad0123456789';
    const body = event();
    const result = await run(
      ['webhook', 'verify', '--signature', sign(secret, body), '--secret-file', secretFile(secret)],
      { stdin: body },
    );
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('warning: the signing secret holds spaces, control or invisible characters');
  });
});

describe('an event as verify and listen print it', () => {
  it('an event whose body holds the secret', async () => {
    const secret = SECRETS[1]![1];
    const body = JSON.stringify({ type: 'ping', timestamp: new Date().toISOString(), note: `echo ${secret}` });
    const result = await run(['webhook', 'verify', '--signature', sign(secret, body), '--secret-env', 'S'], {
      env: { S: secret },
      stdin: body,
    });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).note).toBe('echo whsec_***');
    expectSecretHidden(result);
  });
});

describe('a short secret (a development one) is not hunted for in the data', () => {
  it('verify prints the event as sent: `development` stays, though the secret is `dev`', async () => {
    const body = `{"type":"tender.created","timestamp":"${new Date().toISOString()}","data":{"title":"Devices for the development office","dev":"devdev"}}`;
    const result = await run(['webhook', 'verify', '--signature', sign('dev', body), '--secret-env', 'S'], {
      stdin: body,
      env: { S: 'dev' },
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`${body}\n`);
  });
});
