// A server that echoes the key it was sent, in every place an answer has (problem detail, title
// and correlationId, X-Correlation-Id, Location, an HTML page, the data itself), to keys holding
// the characters that stopped the old redaction short (' " ` , ;) or broke the JSON error line
// ("): no part of the key's tail appears anywhere, and every JSON line still parses. The key
// comes from CDATA_API_KEY, from the profile, or is being logged in.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { run } from '../helpers/run.js';
import { useFolders } from './folders.js';
import { useHostileServers } from './server.js';

const serve = useHostileServers();
const folder = useFolders();
const TAIL = 'tailSECRET99';
const SEPARATORS = ["'", '"', '`', ',', ';', '\\'];
const keyWith = (separator: string) => `svc_Abcdefghijklmnop${separator}${TAIL}${separator}end`;

type Echo = (key: string, req: IncomingMessage, res: ServerResponse) => void;

/** Each way of answering with the key in it, and the exit code cdata must give. */
const ECHOES: [string, number, Echo][] = [
  ...[401, 403, 400, 429, 500].map((status): [string, number, Echo] => [
    `a ${status} problem`,
    { 401: 3, 403: 4, 400: 2, 429: 5, 500: 6 }[status]!,
    (key, _req, res) => {
      res.writeHead(status, {
        'Content-Type': 'application/problem+json',
        'X-Correlation-Id': key,
        'Retry-After': '999',
      });
      res.end(
        JSON.stringify({
          type: 'about:blank',
          title: `Title ${key}`,
          status,
          detail: `Detail ${key} (${encodeURIComponent(key)})`,
          correlationId: key,
        }),
      );
    },
  ]),
  ['a 401 with only the header', 3, (key, _req, res) => void res.writeHead(401, { 'X-Correlation-Id': key }).end()],
  [
    'a redirect',
    7,
    (key, _req, res) =>
      void res.writeHead(302, { Location: `https://elsewhere.example/?k=${key}&e=${encodeURIComponent(key)}` }).end(),
  ],
  [
    'an HTML 200',
    7,
    (key, _req, res) =>
      void res.writeHead(200, { 'Content-Type': 'text/html', 'X-Correlation-Id': key }).end(`<p>${key}</p>`),
  ],
  [
    'JSON of the wrong shape',
    7,
    (key, _req, res) => void res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ key })),
  ],
  [
    'the key in the data',
    0,
    (key, _req, res) =>
      void res
        .writeHead(200, { 'Content-Type': 'application/json' })
        .end(JSON.stringify([{ title: `the key is ${key}`, [key]: 1 }])),
  ],
];

async function echoing(echo: Echo) {
  return serve((req, res) => echo(String(req.headers['x-api-key'] ?? ''), req, res));
}

/** The run's whole output: no tail of the key, and every JSON line on stderr parses. */
function expectClean(result: { stdout: string; stderr: string }, key: string): void {
  const all = `${result.stdout}\n${result.stderr}`;
  expect(all).not.toContain(TAIL);
  expect(all).not.toContain(key);
  for (const line of result.stderr.split('\n'))
    if (line.startsWith('{')) expect(() => JSON.parse(line), line).not.toThrow();
}

describe.each(SEPARATORS)('a key holding %s', (separator) => {
  const key = keyWith(separator);

  it.each(ECHOES)('in CDATA_API_KEY, %s: -o json, --debug', async (_what, code, echo) => {
    const server = await echoing(echo);
    const result = await run(['tenders', '-o', 'json', '--debug', '--retries', '0'], {
      env: { CDATA_BASE_URL: server.url, CDATA_API_KEY: key },
    });
    expect(result.code, result.stderr).toBe(code);
    expectClean(result, key);
    if (code !== 0)
      expect(JSON.parse(result.stderr.trimEnd().split('\n').at(-1)!)).toMatchObject({ error: { exitCode: code } });
    else expect(JSON.parse(result.stdout)).toEqual([{ title: 'the key is svc_***', 'svc_***': 1 }]);
  });

  it.each(ECHOES)('stored in the profile, %s: table, csv', async (_what, code, echo) => {
    const server = await echoing(echo);
    const dir = folder();
    writeFileSync(
      join(dir, 'config.json'),
      JSON.stringify({ defaultProfile: 'default', profiles: { default: { key, baseUrl: server.url } } }),
      { mode: 0o600 },
    );
    for (const format of ['table', 'csv']) {
      const result = await run(['tenders', '-o', format, '--retries', '0'], { env: { CDATA_CONFIG_DIR: dir } });
      expect(result.code, result.stderr).toBe(code);
      expectClean(result, key);
    }
  });

  it('being logged in, against a 401 that echoes it: exit 3, nothing stored', async () => {
    const server = await echoing(ECHOES[0]![2]);
    for (const output of [[], ['-o', 'json']]) {
      const result = await run(['auth', 'login', '--base-url', server.url, ...output], { stdin: key });
      expect(result.code).toBe(3);
      expect(result.stderr.split('\n')[0]).toBe(
        'error: Detail svc_*** (svc_***); nothing stored (HTTP 401, correlation id svc_***)',
      );
      expectClean(result, key);
    }
  });

  it('auth status against a 401 that echoes it: text and JSON', async () => {
    const server = await echoing(ECHOES[0]![2]);
    for (const output of [[], ['-o', 'json']]) {
      const result = await run(['auth', 'status', ...output], {
        env: { CDATA_BASE_URL: server.url, CDATA_API_KEY: key },
      });
      expect(result.code).toBe(3);
      expectClean(result, key);
      if (output.length)
        expect(JSON.parse(result.stdout).error).toEqual({ exitCode: 3, message: 'Detail svc_*** (svc_***)' });
    }
  });
});

// V8's complaint about broken JSON quotes ten characters either side of the fault: here the
// key's end, which no redaction of the key finds. cdata says the fault without the quote.
it('broken JSON right after the key: the fault named, not quoted from the body', async () => {
  const key = `svc_Abcdefghijklmnop${TAIL}`;
  const server = await echoing(
    (sent, _req, res) => void res.writeHead(200, { 'Content-Type': 'application/json' }).end(`["${sent}",x]`),
  );
  const result = await run(['tenders', '--retries', '0'], { env: { CDATA_BASE_URL: server.url, CDATA_API_KEY: key } });
  expect(result.code).toBe(7);
  expect(result.stderr).toBe(
    `error: the answer from /api/v1/tenders is not valid JSON (Unexpected token 'x'): "[\\"svc_***\\",x]" (HTTP 200)\n`,
  );
});
