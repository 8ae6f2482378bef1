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

async function remote(env: Record<string, string>) {
  const result = await cdata(['workspaces', '--retries', '0', '--timeout', '5'], { env: { ...REMOTE, ...env } });
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

  it('NO_PROXY covering the host bypasses the proxy; naming another host does not', async () => {
    await remote({ HTTPS_PROXY: proxy.url, NO_PROXY: 'example.com,api.cdata.test' });
    expect(proxy.seen).toEqual([]);
    await remote({ HTTPS_PROXY: proxy.url, NO_PROXY: 'example.com' });
    expect(proxy.seen).toEqual(['CONNECT api.cdata.test:443']);
  });

  it('loopback is never proxied, whatever is set', async () => {
    const before = sandbox.current.requests.length;
    for (const env of [{ HTTP_PROXY: proxy.url }, { HTTPS_PROXY: proxy.url }, { http_proxy: proxy.url, https_proxy: proxy.url }]) {
      const result = await cdata(['workspaces', '-o', 'json'], { env: { ...sandboxEnv(sandbox.current), ...env } });
      expect(result).toMatchObject({ code: 0, stderr: '' });
      expect(JSON.parse(result.stdout)).toHaveLength(3);
    }
    expect(sandbox.current.requests.length).toBe(before + 3);
    expect(proxy.seen).toEqual([]);
  });

  it('the built binary uses the proxy too (the bundle loads undici differently from the tests)', async () => {
    const result = await runBin(['workspaces', '--retries', '0'], { env: { ...REMOTE, HTTPS_PROXY: proxy.url, CDATA_CONFIG_DIR: '/nonexistent' } });
    expect(proxy.seen).toEqual(['CONNECT api.cdata.test:443']);
    expect(result.code).toBe(6);
    expect(result.stderr).toMatch(/^error: cannot reach api\.cdata\.test: Proxy response \(502\) !== 200 when HTTP Tunneling/);
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

  it('a proxy that drops the tunnel without answering: the deadline still ends each attempt', async () => {
    const broken = await startProxy({ dropTunnels: true });
    try {
      const started = Date.now();
      const result = await cdata(['workspaces', '--retries', '1', '--timeout', '0.5'], { env: { ...REMOTE, HTTPS_PROXY: broken.url } });
      expect(result.code).toBe(6);
      expect(result.stderr).toMatch(/^error: no complete answer from api\.cdata\.test within 0\.5 s \(--timeout\) \(gave up after 2 attempts\)\n/);
      expect(Date.now() - started).toBeLessThan(10_000);
    } finally {
      await broken.close();
    }
  });

  it('a proxy that cannot be reached is exit 6, naming the proxy\'s address, with the proxy hint', async () => {
    const closed = proxy.url;
    await proxy.close();
    const result = await remote({ HTTPS_PROXY: closed });
    expect(result.code).toBe(6);
    expect(result.stderr).toMatch(new RegExp(`^error: connection refused by ${new URL(closed).host.replace(/\./g, '\\.')}: nothing is listening on that port`));
    expect(result.stderr).toMatch(/\nhint: Check the host and port of the base URL \(cdata auth status shows it\) and the proxy \(HTTPS_PROXY, NO_PROXY\), and that the server is running\.\n$/);
    proxy = await startProxy();
  });
});
