// From resolved settings to a ready client: the base URL checked and normalised, the key
// required. Every command that calls the API opens its client here.
import { ApiClient } from '../../client/client.js';
import type { RequestGate } from '../../client/gate.js';
import type { Transport } from '../../client/transport.js';
import type { Endpoint } from '../../core/endpoints.js';
import type { JsonValue } from '../../core/json-value.js';
import type { WaitObserver } from '../../client/waits.js';
import { noBaseUrlHint, normaliseBaseUrl } from '../../core/base-url.js';
import { storedValue } from '../../config/read.js';
import { loginCommand, profileFlag, requireProfile, type Settings } from '../../config/resolve.js';
import { KEY_PREFIX, redactKeys } from '../../config/key.js';
import { AuthError, fromVariable, UsageError } from '../../core/errors.js';
import { sanitize } from '../../core/sanitize.js';
import { VERSION } from '../../core/version.js';
import type { CommandContext } from '../../command-kit/command.js';
import { canRedraw } from '../../io/index.js';

/** What opening a client needs of a command's context. */
export type ApiContext = Pick<CommandContext, 'io' | 'settings' | 'apiKey' | 'note' | 'transport'>;

export const USER_AGENT = `cdata/${VERSION} (node ${process.versions.node}; ${process.platform})`;

/** The normalised base URL, or a usage error saying how to set one. */
export function requireBaseUrl(context: Pick<CommandContext, 'settings'>): string {
  const settings = context.settings();
  const { baseUrl, config, profile } = settings;
  if (baseUrl.value === undefined)
    throw new UsageError('no base URL configured: the API address differs per deployment', {
      hint: noBaseUrlHint(profileFlag(settings)),
    });
  // One stored in the config file is checked as the file's (naming it and the field).
  if (baseUrl.source === 'profile') storedValue(config, profile.name, 'baseUrl', baseUrl.value);
  const value = baseUrl.value;
  return fromVariable(baseUrl.source === 'env' ? 'CDATA_BASE_URL' : undefined, () => normaliseBaseUrl(value));
}

/**

 * A client for the configured API; `key` overrides the resolved key (auth login checks a new one),
 * `waits` the display of waits (export shows them in its progress lines), `shared` connections
 * and a gate shared with other clients (export --profiles). Everything else is checked before a
 * profile's key command runs for the key.
 */
export async function openClient(
  context: ApiContext,
  key?: string,
  waits?: WaitObserver,
  shared?: { transport: Transport; gate: RequestGate },
): Promise<ApiClient> {
  const settings = context.settings();
  if (key === undefined) requireProfile(settings);
  const baseUrl = requireBaseUrl(context);
  const apiKey = key ?? (await context.apiKey());
  const login = loginCommand(settings);
  if (apiKey === undefined) {
    throw new AuthError(`no API key for profile '${settings.profile.name}'`, {
      hint: `Run \`${login}\` (the key is read from stdin or a prompt), or set CDATA_API_KEY.`,
    });
  }
  const unsendable = unsendableKey(apiKey);
  if (unsendable) {
    const where = key !== undefined ? 'the API key' : keyWhere(settings);
    throw new AuthError(`${where} ${unsendable}`, {
      hint: 'Set it again exactly as shown when it was created: svc_ followed by letters and digits, no spaces or line breaks.',
    });
  }
  const { io } = context;
  return new ApiClient({
    baseUrl,
    key: apiKey,
    timeoutSeconds: settings.timeoutSeconds,
    retries: settings.retries,
    maxWaitSeconds: settings.maxWaitSeconds,
    io,
    userAgent: USER_AGENT,
    transport: shared
      ? async () => shared.transport
      : () => context.transport({ connectTimeoutMs: settings.timeoutSeconds * 1000 }),
    keepTransport: shared !== undefined,
    gate: shared?.gate,
    trace: settings.debug ? (line) => io.stderr.write(`[debug] ${sanitize(redactKeys(line, [apiKey]))}\n`) : undefined,
    waits: waits ? async () => waits : waitDisplay(context),
    login,
    baseUrlFlag: settings.baseUrl.source === 'flag',
    keyFrom:
      key === undefined && (settings.key.source === 'env' || settings.key.source === 'key-command')
        ? settings.key.source
        : undefined,
  });
}

function keyWhere({ key, profile }: Settings): string {
  if (key.source === 'env') return 'the API key in CDATA_API_KEY';
  if (key.source === 'key-command') return `the API key printed by the key command of profile '${profile.name}'`;
  return `the API key of profile '${profile.name}'`;
}

/**
 * One GET of an endpoint, the client closed after: its data (a list cut to the limit asked for),
 * and the note that says so, for the caller to give after the output, as every note comes
 * (after the pager has closed).
 */
export async function getData(
  context: ApiContext,
  endpoint: Endpoint,
  query: Record<string, string>,
): Promise<{ data: JsonValue; surplus: string | undefined }> {
  const client = await openClient(context);
  try {
    const { data, received } = await client.get(endpoint, query);
    const surplus =
      received !== undefined && Array.isArray(data) ? surplusNote(endpoint, received, data.length) : undefined;
    return { data, surplus };
  } finally {
    await client.close();
  }
}

/**
 * What a list longer than asked for (a server that ignores `limit`) is told with: the rows it
 * held, and that the first ones asked for are shown. The user's data is fine; the server is not.
 */
export function surplusNote(endpoint: Endpoint, received: number, kept: number): string {
  const asked = endpoint.params.some((param) => param.kind === 'limit')
    ? `the ${kept} asked for`
    : `the ${kept} the API returns at most`;
  return `the API sent ${received.toLocaleString('en')} ${endpoint.name}, more than ${asked}: the first ${kept} are used`;
}

/**
 * At a terminal (stderr), a spinner for a slow answer, a retry or a 429 wait, loaded only then;
 * not with -q, nor with --debug, whose trace says the same line by line. Elsewhere only a 429
 * wait is said, as a note (a script's log shows why the command took that long).
 */
function waitDisplay(context: ApiContext): () => Promise<WaitObserver> {
  const { io } = context;
  const { quiet, debug } = context.settings();
  const spinner = terminalSpinner(io, quiet || debug);
  if (spinner) return spinner;
  return async () => (event) => {
    if (event.kind === 'rate-limited')
      context.note(`rate limited: waiting ${event.seconds} s as the API asked (Retry-After), then trying once more`);
  };
}

/**
 * The spinner for what is awaited, where a person watches (stderr a terminal that can redraw a
 * line) and not told to keep quiet; loaded only then. The API's requests and webhook deliveries.
 */
export function terminalSpinner(io: ApiContext['io'], quiet: boolean): (() => Promise<WaitObserver>) | undefined {
  if (!canRedraw(io, io.stderr) || quiet) return undefined;
  return async () => (await import('../../output/spinner.js')).waitSpinner(io);
}

/** Far longer than any key: servers refuse request headers past 8 to 16 KiB (HTTP 431). */
const MAX_KEY_LENGTH = 4096;

/**
 * Why `key` cannot travel in the X-API-Key header, or undefined when it can. Caught here rather
 * than inside undici, which rejects it as an invalid header: that was retried as a network error
 * and ended as a misleading exit 6 (a stray CR from a CRLF env file, a pasted space), while a
 * Latin-1 letter went out as a byte no key holds and cost a refused request, as a key without
 * svc_ did. The reason never quotes the key.
 */
function unsendableKey(key: string): string | undefined {
  if (/[\s\u0000-\u001f\u007f-\u009f]/.test(key)) return 'contains whitespace or a control character';
  if (/[^\u0021-\u007e]/.test(key))
    return 'holds a character that cannot be sent in an HTTP header (anything but printable ASCII)';
  if (key.length > MAX_KEY_LENGTH)
    return `is ${key.length} characters long, too long to be sent (an API key is far shorter)`;
  // Sent, it would only come back 401, and count toward the API's lock-out of an address.
  if (!key.startsWith(KEY_PREFIX)) return `does not start with ${KEY_PREFIX}, as every API key does`;
  if (key === KEY_PREFIX) return `holds nothing after ${KEY_PREFIX}`;
  return undefined;
}
