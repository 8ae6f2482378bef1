// HTTP_PROXY / HTTPS_PROXY / NO_PROXY from cdata's own environment (its Io), through undici.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cdata } from '../helpers/checked.js';
import { startProxy, type RecordingProxy } from '../helpers/proxy.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';

const sandbox = useSandbox();
let proxy: RecordingProxy;
beforeEach(async () => {
  proxy = await startProxy();
});
afterEach(async () => {
  await proxy.close();
});

const target = () => new URL(sandbox.current.url).host;

async function workspaces(env: Record<string, string>) {
  const before = sandbox.current.requests.length;
  const result = await cdata(['workspaces', '-o', 'json'], { env: { ...sandboxEnv(sandbox.current), ...env } });
  expect(result).toMatchObject({ code: 0, stderr: '' });
  expect(JSON.parse(result.stdout)).toHaveLength(3);
  expect(sandbox.current.requests.length).toBe(before + 1);
}

describe('proxies', () => {
  it('HTTP_PROXY carries the request', async () => {
    await workspaces({ HTTP_PROXY: proxy.url });
    expect(proxy.seen).toHaveLength(1);
    expect(proxy.seen[0]).toMatch(new RegExp(`^(CONNECT ${target()}|GET http://${target()}/api/v1/workspaces)$`));
  });

  it('so does http_proxy, in lower case', async () => {
    await workspaces({ http_proxy: proxy.url });
    expect(proxy.seen).toHaveLength(1);
  });

  it('NO_PROXY covering the host bypasses it', async () => {
    await workspaces({ HTTP_PROXY: proxy.url, NO_PROXY: 'example.com,127.0.0.1' });
    expect(proxy.seen).toEqual([]);
  });

  it('NO_PROXY naming another host does not', async () => {
    await workspaces({ HTTP_PROXY: proxy.url, NO_PROXY: 'example.com' });
    expect(proxy.seen).toHaveLength(1);
  });

  it("only cdata's own environment counts, and HTTPS_PROXY is not used for http://", async () => {
    const saved = process.env.HTTP_PROXY;
    process.env.HTTP_PROXY = proxy.url;
    try {
      await workspaces({});
      await workspaces({ HTTPS_PROXY: 'http://127.0.0.1:9' });
    } finally {
      if (saved === undefined) delete process.env.HTTP_PROXY;
      else process.env.HTTP_PROXY = saved;
    }
    expect(proxy.seen).toEqual([]);
  });

  it('a proxy that cannot be reached is exit 6, naming the proxy hint', async () => {
    const closed = proxy.url;
    await proxy.close();
    const result = await cdata(['workspaces', '--retries', '0'], { env: { ...sandboxEnv(sandbox.current), HTTP_PROXY: closed } });
    expect(result.code).toBe(6);
    expect(result.stderr).toMatch(/\nhint: Check the base URL, your network and any proxy \(HTTPS_PROXY, NO_PROXY\)\.\n$/);
    proxy = await startProxy();
  });
});
