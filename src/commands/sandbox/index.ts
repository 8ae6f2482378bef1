// `cdata sandbox`: the local API in the foreground until Ctrl-C, with its URL and demo keys.
import { isLoopback } from '../../core/base-url.js';
import { errorCode, UsageError } from '../../core/errors.js';
import { DEMO_KEYS, demoKey } from '../../sandbox/keys.js';
import { NAMED_FAULTS } from '../../sandbox/faults.js';
import { startSandbox, type Sandbox } from '../../sandbox/server.js';
import type { Handler } from '../../command-kit/command.js';
import type { SANDBOX_OPTIONS } from './command.js';

export const sandbox: Handler<typeof SANDBOX_OPTIONS> = async (context) => {
  const { io, options } = context;
  const { host, port } = options;
  const fault = options.fault === undefined ? undefined : NAMED_FAULTS[options.fault];
  let server: Sandbox;
  try {
    server = await startSandbox({
      host,
      port,
      latencyMs: options.latency,
      failRate: options.failRate,
      day: options.day,
      faults: fault ? () => fault : undefined,
      onRequest: (r) => context.note(`${r.method} ${r.path}${r.query.size ? `?${r.query}` : ''} -> ${r.status}`),
      keepRequests: false,
    });
  } catch (error) {
    const code = errorCode(error);
    if (code === 'EADDRINUSE')
      throw new UsageError(
        `port ${port} on ${host} is already in use: choose another with --port (0 picks a free one)`,
      );
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EACCES') {
      throw new UsageError(`cannot listen on ${host}:${port} (${code})`, { cause: error });
    }
    throw error;
  }
  // Once it listens there (a host it cannot listen on is the error above, without the warning).
  if (!isLoopback(host.includes(':') ? `[${host}]` : host)) {
    context.warn(`listening on ${host}: the demo keys are public, so anyone who can reach this address can use them`);
  }

  const all = demoKey('all');
  const width = Math.max(...DEMO_KEYS.map((k) => k.displayName.length));
  io.stdout.write(
    [
      `cdata sandbox: the API reference with demo data, at ${server.url}${/^(0\.0\.0\.0|::0*|(0+:){7}0+)$/.test(host) ? ` (listening on every interface, ${host})` : ''}`,
      '',
      'Demo keys:',
      ...DEMO_KEYS.map((k) => `  ${k.displayName.padEnd(width)}  ${demoKey(k.id)}`),
      '',
      'Try:',
      ...tryLines(server.url, all),
      ...(options.day > 0
        ? [
            '',
            `The demo data is that of day ${options.day}: rows added, changed and removed since day 0 (docs/sandbox.md).`,
          ]
        : []),
      ...(fault ? ['', `Every request is answered with the fault '${options.fault}'.`] : []),
      '',
      'Ctrl-C stops it.',
      '',
    ].join('\n'),
  );

  await new Promise<void>((resolve) => io.onInterrupt(resolve));
  await server.close();
  return 0;
};

/**
 * The banner's lines to try it with. cdata sends a key over plain http:// to loopback only: at an
 * address off loopback (--host 192.0.2.2) curl still can, and cdata is pointed elsewhere.
 */
export function tryLines(url: string, key: string): string[] {
  const curl = `  curl -H "X-API-Key: ${key}" ${url}/api/v1/tenders`;
  if (!isLoopback(new URL(url).hostname))
    return [
      curl,
      '  (cdata sends a key over plain http:// to loopback only: for cdata, start the sandbox on',
      '  127.0.0.1, the default, or 0.0.0.0 for both)',
    ];
  return [`  export CDATA_BASE_URL=${url} CDATA_API_KEY=${key}`, '  cdata tenders --tier RECOMMENDED', curl];
}
