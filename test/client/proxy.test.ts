// HTTPS_PROXY / HTTP_PROXY / NO_PROXY from cdata's own environment (its Io), through undici.
// An https:// API goes through the proxy as a CONNECT tunnel, so the proxy sees the host and
// never the key; loopback is never proxied (a remote proxy cannot reach it, and plain http to a
// proxy would hand over the key in clear).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { demoKey } from '../../src/sandbox/keys.js';
import { cdata } from '../helpers/checked.js';
import { startProxy, type RecordingProxy } from '../helpers/proxy.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';
import { runBin } from '../helpers/spawn.js';

const sandbox = useSandbox();
let proxy: RecordingProxy;
beforeEach(async () => {
  proxy = await startProxy();
});
afterEach(async () => {
  await proxy.close();
});

/** An https API elsewhere: reachable only through the proxy (which, here, cannot tunnel to it). */
const REMOTE = { CDATA_BASE_URL: 'https://api.cdata.test', CDATA_API_KEY: demoKey('all') };

async function remote(env: Record<string, string>, flags: string[] = []) {
  const result = await cdata(['workspaces', '--retries', '0', '--timeout', '5', ...flags], {
    env: { ...REMOTE, ...env },
  });
  expect(result.code).toBe(6);
  return result;
}

describe('proxies', () => {
  it('HTTPS_PROXY carries an https request as a CONNECT tunnel; the proxy never sees the key', async () => {
    await remote({ HTTPS_PROXY: proxy.url });
    expect(proxy.seen).toEqual(['CONNECT api.cdata.test:443']);
    expect(proxy.raw.join('\n')).not.toContain(demoKey('all'));
    expect(proxy.raw.join('\n')).not.toContain('svc_');
  });

  it('so does https_proxy in lower case, and HTTP_PROXY alone (tunnelled too)', async () => {
    await remote({ https_proxy: proxy.url });
    await remote({ HTTP_PROXY: proxy.url });
    expect(proxy.seen).toEqual(['CONNECT api.cdata.test:443', 'CONNECT api.cdata.test:443']);
  });

  it('host:port without a scheme is an http:// proxy, as curl and Go read it', async () => {
    await remote({ HTTPS_PROXY: new URL(proxy.url).host });
    expect(proxy.seen).toEqual(['CONNECT api.cdata.test:443']);
  });

  it('a value that is no http(s) proxy URL is exit 2 naming the variable, never its value, before any request', async () => {
    const hint = (variable: string) =>
      `hint: Set ${variable} to http://HOST:PORT (http://USER:PASSWORD@HOST:PORT when the proxy needs them, special characters percent-encoded), or unset it.\n`;
    for (const [variable, value] of [
      ['HTTPS_PROXY', ' '],
      ['https_proxy', 'http://'],
      ['HTTP_PROXY', 'http://[::1'],
      ['HTTPS_PROXY', 'http://ops:s3cr%ZZet@proxy.corp:3128'],
    ]) {
      const result = await cdata(['workspaces'], { env: { ...REMOTE, [variable!]: value! } });
      expect(result).toMatchObject({
        code: 2,
        stdout: '',
        stderr: `error: ${variable} is not a proxy URL\n${hint(variable!)}`,
      });
    }
    const socks = await cdata(['workspaces'], { env: { ...REMOTE, HTTPS_PROXY: 'socks5://ops:pw@127.0.0.1:1080' } });
    expect(socks).toMatchObject({
      code: 2,
      stderr: `error: HTTPS_PROXY names a socks5 proxy (socks5://127.0.0.1:1080): cdata reaches the API through an HTTP proxy's CONNECT tunnel only\n${hint('HTTPS_PROXY')}`,
    });
    expect(proxy.seen).toEqual([]);
  });

  it('a proxy variable no request uses is not checked: a socks5 http_proxy beside an HTTPS_PROXY', async () => {
    const result = await remote({ HTTPS_PROXY: proxy.url, http_proxy: 'socks5://127.0.0.1:1080' });
    expect(result.stderr).toMatch(
      /^error: the proxy http:\/\/127\.0\.0\.1:\d+ \(HTTPS_PROXY\) could not open a tunnel/,
    );
    expect(proxy.seen).toEqual(['CONNECT api.cdata.test:443']);
  });

  it('NO_PROXY covering the host bypasses the proxy; naming another host does not', async () => {
    await remote({ HTTPS_PROXY: proxy.url, NO_PROXY: 'example.com,api.cdata.test' });
    expect(proxy.seen).toEqual([]);
    await remote({ HTTPS_PROXY: proxy.url, NO_PROXY: 'example.com' });
    expect(proxy.seen).toEqual(['CONNECT api.cdata.test:443']);
  });

  it.each([
    ['the host', 'api.cdata.test', 'api.cdata.test'],
    ['a parent domain, which covers its subdomains', 'example.com cdata.test', 'cdata.test'],
    ['a leading dot', 'example.com,.cdata.test', '.cdata.test'],
    ['a leading *.', '*.CDATA.test', '*.CDATA.test'],
    ['the host with its port', 'api.cdata.test:443', 'api.cdata.test:443'],
    ['every host', '*', '*'],
  ])('NO_PROXY naming %s: direct, and --debug says why', async (_what, noProxy, entry) => {
    const result = await remote({ HTTPS_PROXY: proxy.url, no_proxy: noProxy }, ['--debug']);
    expect(proxy.seen).toEqual([]);
    expect(result.stderr).toContain(
      `[debug] > not through the proxy ${proxy.url} (HTTPS_PROXY): no_proxy names ${entry}\n`,
    );
  });

  it.each([
    ['another port', 'api.cdata.test:8443'],
    ['a name that only ends the same', 'i.cdata.test,pi.cdata.test'],
    ['a subdomain of the host', 'eu.api.cdata.test'],
  ])('NO_PROXY naming %s: through the proxy, as --debug says', async (_what, noProxy) => {
    const result = await remote({ HTTPS_PROXY: proxy.url, NO_PROXY: noProxy }, ['--debug']);
    expect(proxy.seen).toEqual(['CONNECT api.cdata.test:443']);
    expect(result.stderr).toContain(`[debug] > through the proxy ${proxy.url} (HTTPS_PROXY)\n`);
  });

  it('a proxy variable that NO_PROXY makes unused is not checked either', async () => {
    const result = await remote({ HTTPS_PROXY: 'socks5://127.0.0.1:1080', NO_PROXY: 'cdata.test' });
    expect(result.stderr).toMatch(/^error: cannot resolve api\.cdata\.test: no such host \(DNS\)\n/);
  });

  it('loopback is never proxied, whatever is set', async () => {
    const before = sandbox.current.requests.length;
    for (const env of [
      { HTTP_PROXY: proxy.url },
      { HTTPS_PROXY: proxy.url },
      { http_proxy: proxy.url, https_proxy: proxy.url },
    ]) {
      const result = await cdata(['workspaces', '-o', 'json'], { env: { ...sandboxEnv(sandbox.current), ...env } });
      expect(result).toMatchObject({ code: 0, stderr: '' });
      expect(JSON.parse(result.stdout)).toHaveLength(3);
    }
    expect(sandbox.current.requests.length).toBe(before + 3);
    expect(proxy.seen).toEqual([]);
    const debug = await cdata(['workspaces', '--debug'], {
      env: { ...sandboxEnv(sandbox.current), HTTP_PROXY: proxy.url },
    });
    expect(debug.stderr).toContain(
      `[debug] > not through the proxy ${proxy.url} (HTTP_PROXY): loopback is always reached directly\n`,
    );
  });

  it('the built binary uses the proxy too (the bundle loads undici differently from the tests)', async () => {
    const result = await runBin(['workspaces', '--retries', '0'], {
      env: { ...REMOTE, HTTPS_PROXY: proxy.url, CDATA_CONFIG_DIR: '/nonexistent' },
    });
    expect(proxy.seen).toEqual(['CONNECT api.cdata.test:443']);
    expect(result.code).toBe(6);
    expect(result.stderr).toBe(
      `error: the proxy ${proxy.url} (HTTPS_PROXY) could not open a tunnel to api.cdata.test:443: 502 Bad Gateway\nhint: The proxy could not reach api.cdata.test: check the host in the base URL (cdata auth status shows it); if it is right, the proxy's own network may be at fault.\n`,
    );
  });

  it("only cdata's own environment counts", async () => {
    const saved = process.env.HTTPS_PROXY;
    process.env.HTTPS_PROXY = proxy.url;
    try {
      await remote({});
    } finally {
      if (saved === undefined) delete process.env.HTTPS_PROXY;
      else process.env.HTTPS_PROXY = saved;
    }
    expect(proxy.seen).toEqual([]);
  });

  // undici takes a socket closed while it connects for one to open again at once: a proxy that
  // closed each CONNECT unanswered got thousands of them a second until the deadline.
  it('a proxy that closes the tunnel without answering: one CONNECT an attempt, said as such, exit 6', async () => {
    const broken = await startProxy({ dropTunnels: true });
    try {
      const result = await cdata(['workspaces', '--retries', '1', '--timeout', '30'], {
        env: { ...REMOTE, HTTPS_PROXY: broken.url },
      });
      expect(result).toMatchObject({
        code: 6,
        stdout: '',
        stderr:
          `error: the proxy ${broken.url} (HTTPS_PROXY) closed the connection without opening a tunnel to api.cdata.test:443 (gave up after 2 attempts)\n` +
          `hint: The proxy may be overloaded, or refuse tunnels to api.cdata.test without saying so: try again later, or ask its administrator (curl -v -x ${broken.url} https://api.cdata.test shows the same).\n`,
      });
      // undici opens its next connection in the same turn as it reports the first closed: at
      // most that one more an attempt, where it made thousands a second.
      expect(new Set(broken.seen)).toEqual(new Set(['CONNECT api.cdata.test:443']));
      expect(broken.seen.length).toBeGreaterThanOrEqual(2);
      expect(broken.seen.length).toBeLessThanOrEqual(4);
    } finally {
      await broken.close();
    }
  });

  describe('a proxy that refuses the tunnel: a message of its own naming the proxy, exit 2, not retried', () => {
    let refusing: RecordingProxy | undefined;
    afterEach(async () => {
      await refusing?.close();
      refusing = undefined;
    });
    const refuse = async (status: number, variable: string, credentials = '') => {
      refusing = await startProxy({ refuseTunnels: status });
      const url = refusing.url.replace('//', `//${credentials}`);
      const result = await cdata(['workspaces', '--retries', '2', '--timeout', '5'], {
        env: { ...REMOTE, [variable]: url },
      });
      expect(result).toMatchObject({ code: 2, stdout: '' });
      // 407 and 403 are the proxy's settled word: one CONNECT, no retry.
      expect(refusing.seen).toEqual(['CONNECT api.cdata.test:443']);
      return { result, raw: refusing.raw.join('\n'), shown: refusing.url };
    };

    it('407 without credentials: says the proxy wants them, and where they go', async () => {
      const { result, shown } = await refuse(407, 'HTTPS_PROXY');
      expect(result.stderr).toBe(
        `error: the proxy ${shown} (HTTPS_PROXY) refused the tunnel to api.cdata.test:443: 407 Proxy Authentication Required\n` +
          `hint: The proxy wants a user name and password, and HTTPS_PROXY holds none: give them as ${shown.replace('//', '//USER:PASSWORD@')} (special characters percent-encoded, %40 for @).\n`,
      );
    });

    it('407 with credentials in the URL: they were sent, and are never shown', async () => {
      const { result, raw, shown } = await refuse(407, 'https_proxy', 'etl:s3cr%40t@');
      expect(raw).toContain(`proxy-authorization\nBasic ${Buffer.from('etl:s3cr@t').toString('base64')}`);
      expect(result.stderr).toBe(
        `error: the proxy ${shown} (https_proxy) refused the tunnel to api.cdata.test:443: 407 Proxy Authentication Required\n` +
          `hint: The proxy did not accept the user name and password in https_proxy: check them (as ${shown.replace('//', '//USER:PASSWORD@')}, with special characters percent-encoded, %40 for @).\n`,
      );
      expect(result.stderr).not.toMatch(/etl|s3cr/);
    });

    it('403, with -o json: its rules forbid the host; the JSON error line says the same', async () => {
      refusing = await startProxy({ refuseTunnels: 403 });
      const result = await cdata(['workspaces', '-o', 'json', '--retries', '2'], {
        env: { ...REMOTE, HTTP_PROXY: `http://ops:pw@${new URL(refusing.url).host}` },
      });
      const detail = `the proxy ${refusing.url} (HTTP_PROXY) refused the tunnel to api.cdata.test:443: 403 Forbidden`;
      expect(result).toMatchObject({ code: 2, stdout: '' });
      expect(result.stderr.split('\n')).toEqual([
        `error: ${detail}`,
        "hint: The proxy's rules do not let it connect to api.cdata.test:443: ask its administrator to allow it, or, if api.cdata.test is reachable without the proxy, add it to NO_PROXY.",
        JSON.stringify({ error: { status: null, title: 'Usage error', detail, correlationId: null, exitCode: 2 } }),
        '',
      ]);
      expect(refusing.seen).toEqual(['CONNECT api.cdata.test:443']);
    });

    it('in the built binary too', async () => {
      refusing = await startProxy({ refuseTunnels: 407 });
      const result = await runBin(['workspaces'], {
        env: { ...REMOTE, HTTPS_PROXY: refusing.url, CDATA_CONFIG_DIR: '/nonexistent' },
      });
      expect(result.code).toBe(2);
      expect(result.stderr.split('\n')[0]).toBe(
        `error: the proxy ${refusing.url} (HTTPS_PROXY) refused the tunnel to api.cdata.test:443: 407 Proxy Authentication Required`,
      );
    });

    it('webhook ping through it: cannot reach the receiver, for that reason (exit 6)', async () => {
      refusing = await startProxy({ refuseTunnels: 407 });
      const result = await cdata(['webhook', 'ping', 'https://hooks.example.test/in', '--secret-env', 'SECRET'], {
        env: { HTTPS_PROXY: refusing.url, SECRET: 'whsec_test' },
      });
      expect(result).toMatchObject({ code: 6, stdout: '' });
      expect(result.stderr).toBe(
        `error: cannot reach hooks.example.test: the proxy ${refusing.url} (HTTPS_PROXY) refused the tunnel to hooks.example.test:443: 407 Proxy Authentication Required\n` +
          'hint: Check the receiver URL (host and port), that the receiver is running there, and any proxy (HTTPS_PROXY, NO_PROXY).\n',
      );
    });
  });

  it("a proxy that cannot be reached is exit 6, naming the proxy's address, with the proxy hint", async () => {
    const closed = proxy.url;
    await proxy.close();
    const result = await remote({ HTTPS_PROXY: closed });
    expect(result.code).toBe(6);
    expect(result.stderr).toMatch(
      new RegExp(
        `^error: connection refused by ${new URL(closed).host.replace(/\./g, '\\.')}: nothing is listening on that port`,
      ),
    );
    expect(result.stderr).toMatch(
      /\nhint: Check the host and port of the base URL \(cdata auth status shows it\) and the proxy \(HTTPS_PROXY, NO_PROXY\), and that the server is running\.\n$/,
    );
    proxy = await startProxy();
  });
});
