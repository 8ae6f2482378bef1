import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sign } from '../../src/webhook/signature.js';
import type { Receiver, ReceiverOptions } from '../../src/webhook/receiver.js';
import { testIo } from '../helpers/io.js';
import { startTestReceiver } from '../helpers/receiver.js';
import { run, runWith, tempConfigDir, type RunResult } from '../helpers/run.js';
import { until } from '../helpers/wait.js';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const env = { WEBHOOK_SECRET: SECRET };
const now = Date.now();
const body = (type = 'ping', at = now) => `{"type":"${type}","timestamp":"${new Date(at).toISOString()}"}`;
const file = (name: string, content: string) => {
  const path = join(mkdtempSync(join(tmpdir(), 'cdata-webhook-')), name);
  writeFileSync(path, content);
  return path;
};

/** Every run in this file: the secret is never printed, in any form. */
async function cdata(argv: string[], options: Parameters<typeof run>[1] = {}): Promise<RunResult> {
  const result = await run(argv, { ...options, env: { ...env, ...options.env } });
  expect(`${result.stdout}${result.stderr}`).not.toContain(SECRET.slice('whsec_'.length));
  return result;
}

const servers: (Server | Receiver)[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map((s) =>
      'url' in s
        ? s.close()
        : new Promise((r) => {
            s.closeAllConnections();
            s.close(r);
          }),
    ),
  );
});

async function serve(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ url: string; hits: IncomingMessage[] }> {
  const hits: IncomingMessage[] = [];
  const server = createServer((req, res) => {
    hits.push(req);
    req.resume();
    req.on('end', () => handler(req, res));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, hits };
}

async function receiver(options: Partial<ReceiverOptions> = {}) {
  const started = await startTestReceiver(SECRET, options);
  servers.push(started.receiver);
  return started;
}

describe('cdata webhook verify', () => {
  it('valid: exit 0, the event on stdout as one JSON line, a note on stderr', async () => {
    const b = body();
    const result = await cdata(
      ['webhook', 'verify', '--signature', sign(SECRET, b), '--secret-env', 'WEBHOOK_SECRET'],
      { stdin: b },
    );
    expect(result).toMatchObject({
      code: 0,
      stdout: `${b}\n`,
      stderr: `valid: ping event, timestamp ${new Date(now).toISOString()}\n`,
    });
  });

  it('the event line escapes what a terminal would act on (C1, bidi, line separators), as all JSON cdata prints', async () => {
    const b = `{"type":"ping","timestamp":"${new Date(now).toISOString()}","t":"a\u009b31mb\u202ec\u2028d"}`;
    const result = await cdata(
      ['webhook', 'verify', '--signature', sign(SECRET, b), '--secret-env', 'WEBHOOK_SECRET'],
      { stdin: b },
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      `{"type":"ping","timestamp":"${new Date(now).toISOString()}","t":"a\\u009b31mb\\u202ec\\u2028d"}\n`,
    );
  });

  it('reads the body from --body-file and then the secret from stdin, dropping one trailing line break', async () => {
    const b = body();
    const result = await cdata(
      ['webhook', 'verify', '--signature', sign(SECRET, b), '--body-file', file('body.json', b)],
      { stdin: `${SECRET}\n` },
    );
    expect(result.code).toBe(0);
  });

  it('a --body-file that is not there: exit 2 naming it, without the hint about pipes', async () => {
    const missing = join(mkdtempSync(join(tmpdir(), 'cdata-webhook-')), 'nope.json');
    const result = await cdata([
      'webhook',
      'verify',
      '--signature',
      sign(SECRET, body()),
      '--body-file',
      missing,
      '--secret-env',
      'WEBHOOK_SECRET',
    ]);
    expect(result).toMatchObject({
      code: 2,
      stdout: '',
      stderr: `error: cannot read the body file ${missing}: ENOENT: no such file or directory, open '${missing}'\n`,
    });
  });

  it('--secret-file: one trailing line break is dropped (echo adds one), a second is part of the secret', async () => {
    const b = body();
    const args = ['webhook', 'verify', '--signature', sign(SECRET, b)];
    expect((await cdata([...args, '--secret-file', file('secret', `${SECRET}\n`)], { stdin: b })).code).toBe(0);
    expect((await cdata([...args, '--secret-file', file('secret', `${SECRET}\r\n`)], { stdin: b })).code).toBe(0);
    const twice = await cdata([...args, '--secret-file', file('secret', `${SECRET}\n\n`)], { stdin: b });
    expect(twice).toMatchObject({
      code: 1,
      stdout: '',
      stderr:
        'warning: the signing secret holds spaces, control or invisible characters (a byte order mark, a zero-width space): a slip of the copy and paste?\n' +
        'rejected: bad-signature: the signature does not match the body (wrong secret, or the body was changed)\n',
    });
  });

  it('rejected: exit 1 with the reason; the raw bytes count, not the JSON', async () => {
    const b = body();
    const args = ['webhook', 'verify', '--secret-env', 'WEBHOOK_SECRET', '--signature'];
    expect(await cdata([...args, sign(SECRET, b)], { stdin: JSON.stringify(JSON.parse(b), null, 2) })).toMatchObject({
      code: 1,
      stdout: '',
    });
    expect((await cdata([...args, sign(SECRET, b).toUpperCase()], { stdin: b })).stderr).toBe(
      'rejected: malformed-signature: the signature is not 64 lowercase hexadecimal characters (HMAC-SHA256, hex, no prefix)\n',
    );
    const stale = body('ping', now - 400_000);
    expect((await cdata([...args, sign(SECRET, stale)], { stdin: stale })).stderr).toMatch(
      /^rejected: stale-timestamp: the timestamp is 40\d s from now, more than the 300 s allowed \(a replay\?\)\n$/,
    );
    expect((await cdata([...args, sign(SECRET, stale), '--tolerance', '600'], { stdin: stale })).code).toBe(0);
  });

  it('a correctly signed body over 1 MiB is rejected (exit 1) wherever it comes from, as listen answers 413', async () => {
    const big = `{"type":"ping","timestamp":"${new Date(now).toISOString()}","pad":"${'x'.repeat(1024 * 1024)}"}`;
    const args = ['webhook', 'verify', '--signature', sign(SECRET, big)];
    const expected = {
      code: 1,
      stdout: '',
      stderr: 'rejected: too-large: the body is larger than 1 MiB, more than any delivery (a receiver answers 413)\n',
    };
    expect(await cdata([...args, '--secret-env', 'WEBHOOK_SECRET'], { stdin: big })).toMatchObject(expected);
    expect(await cdata([...args, '--body-file', file('big.json', big)], { stdin: SECRET })).toMatchObject(expected);
  });

  it('usage errors (exit 2): no signature, no secret, two secret sources, the secret on argv (never echoed)', async () => {
    const SECRET_HINT =
      'hint: Keep the secret in a variable and name it: export WEBHOOK_SECRET=...; cdata webhook ... --secret-env WEBHOOK_SECRET. The secret never goes on the command line.';
    const b = body();
    const cases: [string[], string][] = [
      [
        ['webhook', 'verify', '--secret-env', 'WEBHOOK_SECRET'],
        'error: --signature HEX is required: the value of the X-Service-Signature header\n',
      ],
      [
        ['webhook', 'verify', '--signature', sign(SECRET, b)],
        'error: no signing secret: give it with --secret-env VAR or --secret-file FILE\nhint: The secret never goes on the command line, where shell history and process lists keep it.\n',
      ],
      [
        ['webhook', 'verify', '--signature', sign(SECRET, b), '--secret-env', 'NOPE'],
        'error: the environment variable NOPE (--secret-env) is not set or empty\n',
      ],
      [
        ['webhook', 'verify', '--signature', sign(SECRET, b), '--secret-env', 'WEBHOOK_SECRET', '--secret-file', 'x'],
        'error: --secret-env and --secret-file cannot be used together\n',
      ],
      // The secret itself where its variable's name or its file's path goes: never echoed.
      ...[`--secret-env=${SECRET}`, 'a secret: with spaces'].map((given): [string[], string] => [
        ['webhook', 'verify', '--signature', sign(SECRET, b), '--secret-env', given.replace(/^--secret-env=/, '')],
        `error: --secret-env takes the name of an environment variable (letters, digits and _), and what it was given is ${given.startsWith('--') ? 'a signing secret itself' : 'not one'} (not echoed: it may be the secret)\n${SECRET_HINT}\n`,
      ]),
      [
        ['webhook', 'ping', 'http://127.0.0.1:9/', '--secret-file', SECRET],
        `error: --secret-file takes the path of a file that holds the secret, and what it was given is a signing secret itself (not echoed)\n${SECRET_HINT}\n`,
      ],
    ];
    for (const [argv, stderr] of cases) expect(await cdata(argv, { stdin: b })).toMatchObject({ code: 2, stderr });
    // No option, and stdin empty (a service manager's /dev/null): said as no secret, not an empty one.
    expect(await cdata(['webhook', 'listen', '--port', '0'], { stdin: '' })).toMatchObject({
      code: 2,
      stderr:
        'error: no signing secret: stdin was empty (give it with --secret-env VAR or --secret-file FILE, or pipe it on stdin)\n',
    });
    for (const argv of [['--secret', SECRET], [`--secret=${SECRET}`]]) {
      const result = await cdata(['webhook', 'ping', 'http://127.0.0.1:9/', ...argv]);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/^error: the signing secret is never accepted on the command line/);
    }
  });

  it('warns when the secret does not look like a signing secret', async () => {
    const b = body();
    const result = await cdata(['webhook', 'verify', '--signature', sign('not-a-secret', b), '--secret-env', 'S'], {
      stdin: b,
      env: { S: 'not-a-secret' },
    });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(
      "warning: the signing secret does not start with 'whsec_': is it the one the Developers page showed?\n",
    );
  });
});

describe('cdata webhook listen (in-process) with ping and check against it', () => {
  it('accepts valid deliveries (printing each as a JSON line), refuses the rest, and check passes it', async () => {
    const listening = testIo({ env: { ...env, CDATA_CONFIG_DIR: tempConfigDir() } });
    const done = runWith(listening, [
      'webhook',
      'listen',
      '--port',
      '0',
      '--path',
      '/hooks',
      '--secret-env',
      'WEBHOOK_SECRET',
    ]);
    const listeningOn = () => /listening for deliveries on (\S+)/.exec(listening.stderr())?.[1] ?? '';
    await until(() => listeningOn() !== '', 'the receiver to listen');
    const url = listeningOn();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/hooks$/);

    const ping = await cdata(['webhook', 'ping', url, '--secret-env', 'WEBHOOK_SECRET'], { stdoutTTY: true });
    expect(ping.code).toBe(0);
    expect(ping.stdout).toMatch(/^204 No Content in \d+ ms\n$/);

    const check = await cdata(['webhook', 'check', url, '--secret-env', 'WEBHOOK_SECRET', '--color', 'never'], {
      stdoutTTY: true,
    });
    expect(check.code).toBe(0);
    // A table at a terminal: columns aligned (two spaces at least between them); times vary.
    const cells = (line: string) => line.split(/ {2,}/).map((cell, i) => (i === 3 && /^\d+$/.test(cell) ? 'N' : cell));
    expect(
      check.stdout
        .trimEnd()
        .split('\n')
        .map((l) => cells(l).join(' | ')),
    ).toEqual([
      'case | expected | got | ms | pass',
      'valid ping | 2xx | 204 | N | PASS',
      'wrong signature | 401 | 401 | N | PASS',
      'tampered body | 401 | 401 | N | PASS',
      'stale timestamp | 400 | 400 | N | PASS',
      'unknown event type | 2xx | 204 | N | PASS',
    ]);
    expect(check.stderr).toBe('all 5 checks passed\n');

    listening.interrupt();
    expect((await done).code).toBe(0);
    const accepted = listening
      .stdout()
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string });
    expect(accepted.map((e) => e.type).sort()).toEqual(['cdata.check.unknown', 'ping', 'ping']);
    expect(
      listening
        .stderr()
        .match(/^rejected (401|400) /gm)
        ?.sort(),
    ).toEqual(['rejected 400 ', 'rejected 401 ', 'rejected 401 ']);
  });

  it('check and ping print data like every other command: tsv in a pipe, every format, --fields', async () => {
    const { url } = await receiver();
    const args = ['--secret-env', 'WEBHOOK_SECRET'];
    const tsv = await cdata(['webhook', 'check', url, ...args]);
    const timesHidden = tsv.stdout.split('\n').map((line, i) =>
      i === 0
        ? line
        : line
            .split('\t')
            .map((cell, j) => (j === 3 ? 'N' : cell))
            .join('\t'),
    );
    expect(timesHidden.join('\n')).toBe(
      'case\texpected\tgot\tms\tpass\nvalid ping\t2xx\t204\tN\ttrue\nwrong signature\t401\t401\tN\ttrue\n' +
        'tampered body\t401\t401\tN\ttrue\nstale timestamp\t400\t400\tN\ttrue\nunknown event type\t2xx\t204\tN\ttrue\n',
    );
    // Without --fields, JSON keeps the table's order of fields too.
    const json = await cdata(['webhook', 'check', url, ...args, '-o', 'ndjson']);
    expect(Object.keys(JSON.parse(json.stdout.split('\n')[0]!))).toEqual(['case', 'expected', 'got', 'ms', 'pass']);
    const ndjson = await cdata(['webhook', 'check', url, ...args, '-o', 'ndjson', '-f', 'case,pass']);
    expect(ndjson.stdout.trimEnd().split('\n')).toEqual([
      '{"case":"valid ping","pass":true}',
      '{"case":"wrong signature","pass":true}',
      '{"case":"tampered body","pass":true}',
      '{"case":"stale timestamp","pass":true}',
      '{"case":"unknown event type","pass":true}',
    ]);
    const table = await cdata(['webhook', 'check', url, ...args, '-f', 'pass,case', '--color', 'never'], {
      stdoutTTY: true,
    });
    expect(table.stdout.split('\n')[1]).toBe('PASS  valid ping');
    const csv = await cdata(['webhook', 'ping', url, ...args, '-o', 'csv']);
    expect(csv.stdout).toMatch(/^status,statusText,location,ms\r\n204,No Content,,\d+\r\n$/);
    const bad = await cdata(['webhook', 'check', url, ...args, '-f', 'nope']);
    expect(bad).toMatchObject({ code: 2, stdout: '' });
    expect(bad.stderr).toBe(
      "error: unknown field 'nope' in --fields for check results; valid fields: case, expected, got, ms, pass\n",
    );
  });

  it('check -o json prints the results for scripts', async () => {
    const { url } = await receiver();
    const result = await cdata(['webhook', 'check', url, '--secret-env', 'WEBHOOK_SECRET', '-o', 'json']);
    expect(result.code).toBe(0);
    const rows = JSON.parse(result.stdout) as { case: string; pass: boolean; got: string }[];
    expect(rows.map((r) => [r.case, r.got, r.pass])).toEqual([
      ['valid ping', '204', true],
      ['wrong signature', '401', true],
      ['tampered body', '401', true],
      ['stale timestamp', '400', true],
      ['unknown event type', '204', true],
    ]);
  });
});

describe('cdata webhook check tells a careful receiver from a careless one', () => {
  it('fails a receiver that accepts everything (exit 1)', async () => {
    const { url } = await serve((_req, res) => res.writeHead(200).end('ok'));
    const result = await cdata(['webhook', 'check', url, '--secret-env', 'WEBHOOK_SECRET', '-o', 'json']);
    expect(result.code).toBe(1);
    const rows = JSON.parse(result.stdout) as { case: string; pass: boolean }[];
    expect(rows.map((r) => [r.case, r.pass])).toEqual([
      ['valid ping', true],
      ['wrong signature', false],
      ['tampered body', false],
      ['stale timestamp', false],
      ['unknown event type', true],
    ]);
    expect(result.stderr).toBe('3 of 5 checks failed\n');
  });

  it("a receiver that cannot be reached is exit 6, said as the API's failures are, for check and ping", async () => {
    const said =
      'error: cannot reach 127.0.0.1:9: connection refused: nothing is listening on that port\n' +
      'hint: Check the receiver URL (host and port), that the receiver is running there, and any proxy (HTTPS_PROXY, NO_PROXY).\n';
    for (const command of ['check', 'ping']) {
      const result = await cdata(['webhook', command, 'http://127.0.0.1:9/hooks', '--secret-env', 'WEBHOOK_SECRET']);
      expect(result).toMatchObject({ code: 6, stderr: said });
    }
  });

  it('https:// to a receiver speaking plain HTTP: said in a line, never the text of OpenSSL', async () => {
    const { url } = await serve((_req, res) => res.writeHead(200).end('ok'));
    const https = url.replace('http://', 'https://');
    const host = new URL(url).host;
    const ping = await cdata(['webhook', 'ping', https, '--secret-env', 'WEBHOOK_SECRET']);
    expect(ping).toMatchObject({
      code: 6,
      stderr:
        `error: cannot reach ${host}: it speaks plain HTTP, not the TLS that https:// needs (a receiver without TLS is reached as http://)\n` +
        'hint: Check the receiver URL (host and port), that the receiver is running there, and any proxy (HTTPS_PROXY, NO_PROXY).\n',
    });
    const check = await cdata(['webhook', 'check', https, '--secret-env', 'WEBHOOK_SECRET']);
    expect(check.stderr).toBe(ping.stderr);
  });
});

describe('cdata webhook ping', () => {
  it('sends what the platform sends: POST, headers, a fresh signed ping', async () => {
    const seen: { method?: string; headers?: IncomingMessage['headers']; body?: string } = {};
    const server = createServer((req, res) => {
      let text = '';
      req.on('data', (c: Buffer) => (text += c));
      req.on('end', () => {
        Object.assign(seen, { method: req.method, headers: req.headers, body: text });
        res.writeHead(200).end();
      });
    });
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const result = await cdata(
      [
        'webhook',
        'ping',
        `http://127.0.0.1:${(server.address() as AddressInfo).port}/x`,
        '--secret-env',
        'WEBHOOK_SECRET',
      ],
      { stdoutTTY: true },
    );
    expect(result.stdout).toMatch(/^200 OK in \d+ ms\n$/);
    expect(seen.method).toBe('POST');
    expect(seen.headers).toMatchObject({
      'content-type': 'application/json',
      'user-agent': 'Service-Webhooks/1.0',
      'x-service-signature': sign(SECRET, seen.body!),
    });
    const sent = JSON.parse(seen.body!) as { type: string; timestamp: string };
    expect(sent.type).toBe('ping');
    expect(Math.abs(Date.parse(sent.timestamp) - Date.now())).toBeLessThan(60_000);
  });

  it('a receiver that answers 200 and then cuts its body short has still answered 200: exit 0', async () => {
    const { url } = await serve((_req, res) => {
      res.writeHead(200, { 'Content-Length': '100' });
      res.write('ok');
      setTimeout(() => res.socket?.resetAndDestroy(), 20);
    });
    const result = await cdata(['webhook', 'ping', url, '--secret-env', 'WEBHOOK_SECRET'], { stdoutTTY: true });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toMatch(/^200 OK in \d+ ms\n$/);
  });

  it('the status counts, whatever the body does after it: one that never ends, or runs to 20 MiB, is still 200 (exit 0)', async () => {
    const never = await serve((_req, res) => {
      res.writeHead(200, { 'Content-Length': '100' });
      res.write('ok'); // and nothing more: the socket stays open until the test's servers close
    });
    const large = await serve((_req, res) => {
      res.writeHead(200, { 'Content-Length': String(20 * 1024 * 1024) });
      const chunk = Buffer.alloc(64 * 1024, 'x');
      const more = () => {
        while (!res.destroyed && res.write(chunk));
      };
      res.on('drain', more);
      more();
    });
    for (const { url } of [never, large]) {
      const result = await cdata(['webhook', 'ping', url, '--secret-env', 'WEBHOOK_SECRET'], { stdoutTTY: true });
      expect(result).toMatchObject({ code: 0, stderr: '' });
      expect(result.stdout).toMatch(/^200 OK in \d+ ms\n$/);
    }
  });

  // A receiver slower than the 5 s the platform allows: test/webhook/timeouts.test.ts, on a fake clock.

  it('reports a 302 as the result, without following it (the target receives nothing); exit 1', async () => {
    const target = await serve((_req, res) => res.writeHead(204).end());
    const redirecting = await serve((_req, res) => res.writeHead(302, { Location: target.url }).end());
    const result = await cdata(['webhook', 'ping', redirecting.url, '--secret-env', 'WEBHOOK_SECRET'], {
      stdoutTTY: true,
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      new RegExp(
        `^302 Found in \\d+ ms: redirected to ${target.url} \\(not followed, as the platform does not follow it\\)\\n$`,
      ),
    );
    expect(target.hits).toHaveLength(0);
    expect(redirecting.hits).toHaveLength(1);
  });

  it('refuses plain http beyond loopback, and URLs with credentials (exit 2); unreachable is exit 6', async () => {
    expect((await cdata(['webhook', 'ping', 'http://example.com/h', '--secret-env', 'WEBHOOK_SECRET'])).stderr).toBe(
      'error: deliveries go to https:// URLs, or http:// on this machine (loopback) only; not http://example.com\n',
    );
    expect((await cdata(['webhook', 'ping', 'https://u:p@example.com/h', '--secret-env', 'WEBHOOK_SECRET'])).code).toBe(
      2,
    );
    expect(
      (await cdata(['webhook', 'ping', 'http://localhost.example.com/h', '--secret-env', 'WEBHOOK_SECRET'])).code,
    ).toBe(2);
    expect((await cdata(['webhook', 'ping', 'http://127.0.0.1:9/h', '--secret-env', 'WEBHOOK_SECRET'])).code).toBe(6);
  });
});

describe('an event is acknowledged only once recorded', () => {
  const deliver = (url: string) => {
    const good = body();
    return fetch(url, { method: 'POST', body: good, headers: { 'X-Service-Signature': sign(SECRET, good) } });
  };

  it('one that could not be recorded is a 500 saying why, and refused on the record', async () => {
    const { url, rejections } = await receiver({
      onEvent: (_event, recorded) => recorded(new Error('ENOSPC: no space left on device, write')),
    });
    const answer = await deliver(url);
    expect(answer.status).toBe(500);
    expect(await answer.json()).toEqual({
      error: 'the event could not be recorded (ENOSPC: no space left on device, write)',
    });
    expect(rejections).toEqual(['500 the event could not be recorded (ENOSPC: no space left on device, write)']);
  });

  it('one that cannot be recorded now (the output is not read) is a 503 with Retry-After, not taken', async () => {
    let offered = 0;
    const { url, rejections } = await receiver({
      canRecord: () => false,
      onEvent: () => offered++,
    });
    const answer = await deliver(url);
    expect([answer.status, answer.headers.get('retry-after')]).toEqual([503, '5']);
    expect(offered).toBe(0);
    expect(rejections).toEqual(['503 the event cannot be recorded now: its output is not being read']);
  });

  it('one not recorded in time is a 503 with Retry-After then; its late record answers nothing more', async () => {
    let late: (() => void) | undefined;
    const { url, rejections } = await receiver({
      answerWithinMs: 200,
      onEvent: (_event, recorded) => (late = () => recorded()),
    });
    const answer = await deliver(url);
    expect([answer.status, answer.headers.get('retry-after')]).toEqual([503, '5']);
    late!();
    expect(rejections).toEqual(['503 the event was not recorded within 0.2 s: its output is not being read']);
  });

  it('cdata webhook listen with a stdout whose reader is behind answers 503 at once, and prints nothing', async () => {
    const listening = testIo({ env: { ...env, CDATA_CONFIG_DIR: tempConfigDir() } });
    Object.assign(listening.io.stdout, { writableNeedDrain: true });
    const done = runWith(listening, ['webhook', 'listen', '--port', '0', '--secret-env', 'WEBHOOK_SECRET']);
    const listeningOn = () => /listening for deliveries on (\S+)/.exec(listening.stderr())?.[1] ?? '';
    await until(() => listeningOn() !== '', 'the receiver to listen');
    const answer = await deliver(listeningOn());
    expect([answer.status, answer.headers.get('retry-after')]).toEqual([503, '5']);
    listening.interrupt();
    expect(await done).toMatchObject({ code: 0, stdout: '' });
    expect(listening.stderr()).toMatch(
      /\nrejected 503 from 127\.0\.0\.1: the event cannot be recorded now: its output is not being read\n$/,
    );
  });
});

describe('the receiver survives garbage', () => {
  const post = (
    url: string,
    options: { method?: string; path?: string; body?: Buffer | string; headers?: Record<string, string> },
  ) =>
    new Promise<{ status: number; headers: IncomingMessage['headers']; text: string }>((resolve, reject) => {
      const target = new URL(url);
      const req = request(
        {
          host: target.hostname,
          port: target.port,
          path: options.path ?? target.pathname,
          method: options.method ?? 'POST',
          headers: options.headers,
        },
        (res) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += c));
          res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text }));
        },
      );
      req.on('error', reject);
      req.end(options.body);
    });

  it('413 for a body over 1 MiB, declared or streamed; 405 for GET; 404 elsewhere', async () => {
    const { url, rejections } = await receiver();
    expect((await post(url, { body: Buffer.alloc(1024 * 1024 + 1, 'a') })).status).toBe(413);
    expect(
      (await post(url, { headers: { 'Content-Length': String(50 * 1024 * 1024) } }).catch(() => ({ status: 413 })))
        .status,
    ).toBe(413);
    const get = await post(url, { method: 'GET' });
    expect(get).toMatchObject({ status: 405, headers: { allow: 'POST' } });
    expect((await post(url, { path: '/other' })).status).toBe(404);
    expect(rejections.map((r) => r.slice(0, 3))).toEqual(['413', '413', '405', '404']);
  });

  it('answers 401 for no signature and 400 for a signed non-JSON body, and keeps serving', async () => {
    const { url, events } = await receiver();
    expect((await post(url, { body: body() })).status).toBe(401);
    expect(
      (await post(url, { body: 'garbage', headers: { 'X-Service-Signature': sign(SECRET, 'garbage') } })).status,
    ).toBe(400);
    const good = body();
    expect((await post(url, { body: good, headers: { 'X-Service-Signature': sign(SECRET, good) } })).status).toBe(204);
    expect(events).toHaveLength(1);
  });

  it('a correctly signed body nested 100,000 deep: 400 bad-json, and it keeps serving (printing it would overflow the stack)', async () => {
    const { url, events, rejections } = await receiver();
    const deep = `{"type":"ping","timestamp":"${new Date().toISOString()}","a":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    expect((await post(url, { body: deep, headers: { 'X-Service-Signature': sign(SECRET, deep) } })).status).toBe(400);
    expect(rejections).toEqual(['400 bad-json: the body is nested deeper than 64 levels']);
    const good = body();
    expect((await post(url, { body: good, headers: { 'X-Service-Signature': sign(SECRET, good) } })).status).toBe(204);
    expect(events).toHaveLength(1);
    const verified = await cdata(
      ['webhook', 'verify', '--signature', sign(SECRET, deep), '--secret-env', 'WEBHOOK_SECRET'],
      { stdin: deep },
    );
    expect(verified).toMatchObject({
      code: 1,
      stdout: '',
      stderr: 'rejected: bad-json: the body is nested deeper than 64 levels\n',
    });
  });

  it('times out a client that sends its request too slowly (408)', async () => {
    const { url, rejections } = await receiver({ requestTimeoutMs: 300 });
    const { port } = new URL(url);
    const answer = await new Promise<string>((resolve) => {
      const socket = connect(Number(port), '127.0.0.1', () => socket.write('POST /hooks HTTP/1.1\r\nHost: x\r\n'));
      let text = '';
      socket.on('data', (c: Buffer) => {
        text += c;
        socket.end(); // the client goes once answered, its request still unfinished
      });
      socket.on('close', () => resolve(text));
    });
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    await new Promise((resolve) => setTimeout(resolve, 50));
    // One line for the one request refused: its end as it closes is no second (400) refusal.
    expect(rejections).toEqual(['408 the client was too slow']);
  });
});
