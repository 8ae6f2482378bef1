// `cdata webhook verify | listen | ping | check`.
import { UsageError } from '../../core/errors.js';
import { sanitize } from '../../core/sanitize.js';
import { refused, text, value } from '../../core/option.js';
import { parseInteger } from '../../core/parse.js';
import { DEFAULT_TOLERANCE_SECONDS } from '../../webhook/tolerance.js';
import { defineCommand } from '../../command-kit/command.js';
import { CHECK_RESULTS, PING_ANSWER } from '../../command-kit/local-views.js';

export const SECRET_OPTIONS = {
  secretEnv: text('--secret-env <var>', 'read the signing secret from environment variable VAR', {
    conflicts: ['secretFile'],
  }),
  secretFile: text('--secret-file <file>', 'read the signing secret from FILE (one trailing line break dropped)', {
    complete: { kind: 'files' },
    conflicts: ['secretEnv'],
  }),
  // Refused with a message that does not repeat the value (commander would echo --secret=VALUE).
  secret: refused(
    '--secret <secret>',
    () =>
      new UsageError(
        'the signing secret is never accepted on the command line: use --secret-env VAR, --secret-file FILE, or stdin',
        {
          hint: 'Shell history and process lists keep command lines; the secret must stay out of them.',
        },
      ),
  ),
};

const tolerance = value(
  '--tolerance <seconds>',
  'largest allowed |now - timestamp|',
  (raw) => parseInteger('--tolerance', raw, 0, 86_400),
  {
    default: DEFAULT_TOLERANCE_SECONDS,
  },
);

export const VERIFY_OPTIONS = {
  signature: text('--signature <hex>', 'the X-Service-Signature header value', {
    required: () => new UsageError('--signature HEX is required: the value of the X-Service-Signature header'),
  }),
  bodyFile: text('--body-file <file>', 'the raw body (default: stdin)', { complete: { kind: 'files' } }),
  ...SECRET_OPTIONS,
  tolerance,
};

export const LISTEN_OPTIONS = {
  host: value('--host <host>', 'address to listen on', (raw) => raw, { default: '127.0.0.1' }),
  port: value('--port <port>', 'port to listen on', (raw) => parseInteger('--port', raw, 0, 65535), { default: 8787 }),
  path: value('--path <path>', 'path to accept deliveries on', parseListenPath, { default: '/' }),
  ...SECRET_OPTIONS,
  tolerance,
};

/**
 * A path as a request names it: `/` added in front when missing (`--path hooks` is `/hooks`, the
 * path a receiver URL gives), and nothing a request's path cannot be (empty, a query, spaces).
 */
function parseListenPath(raw: string): string {
  if (raw === '' || /[?#\s]/.test(raw))
    throw new UsageError(`--path must be a path alone, e.g. /hooks (got '${sanitize(raw)}')`);
  return raw.startsWith('/') ? raw : `/${raw}`;
}

export const URL_ARGS = [
  { name: 'url', description: 'receiver URL (https://, or http:// on loopback)', required: true },
] as const;

export const WEBHOOK_COMMAND = defineCommand({
  name: 'webhook',
  summary: 'Verify, receive, send and test signed webhook deliveries',
  examples: [
    'cdata webhook listen --secret-env WEBHOOK_SECRET',
    'cdata webhook check https://hooks.example.com/cdata --secret-env WEBHOOK_SECRET',
  ],
  subcommands: [
    defineCommand({
      name: 'verify',
      summary: 'Check a delivery: signature over the raw body, then JSON, then timestamp',
      options: VERIFY_OPTIONS,
      examples: ['cdata webhook verify --signature "$SIG" --body-file body.json --secret-env WEBHOOK_SECRET'],
    }),
    defineCommand({
      name: 'listen',
      summary: 'Run a receiver that follows the rules and prints accepted events as JSON lines',
      options: LISTEN_OPTIONS,
      examples: ['cdata webhook listen --secret-env WEBHOOK_SECRET --port 8787'],
    }),
    defineCommand({
      name: 'ping',
      summary: 'Send a signed ping to a receiver, as the platform does',
      args: URL_ARGS,
      options: SECRET_OPTIONS,
      view: PING_ANSWER,
      examples: ['cdata webhook ping http://127.0.0.1:8787/ --secret-env WEBHOOK_SECRET'],
    }),
    defineCommand({
      name: 'check',
      summary: 'Test a receiver: valid, forged, tampered, stale and unknown deliveries',
      args: URL_ARGS,
      options: SECRET_OPTIONS,
      view: CHECK_RESULTS,
      examples: ['cdata webhook check https://hooks.example.com/cdata --secret-file ./secret'],
    }),
  ],
});
