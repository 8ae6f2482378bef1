// Every command, in the order help lists them. The endpoint commands come from the endpoint
// table; each handler module loads only when its command runs.
import { ENDPOINTS, LIMIT_MAX, LIMIT_MIN, CLI_DEFAULT_LIMIT, TIERS, hasParam, type Endpoint } from '../endpoints.js';
import { EXPORT_FORMATS } from '../config/schema.js';
import type { CommandSpec, OptionSpec } from './spec.js';

/** Names of `cdata sandbox --fault` (src/sandbox/faults.ts NAMED_FAULTS; a test keeps them equal). */
export const FAULT_NAMES = [
  'unavailable',
  'internal',
  'too-many-requests',
  'bad-request',
  'reset-mid-body',
  'stall-after-headers',
  'short-content-length',
  'html-200',
  'object-for-array',
  'broken-json',
  'empty-list',
] as const;

export { GLOBAL_OPTIONS } from './options.js';

const limitOption: OptionSpec = {
  flags: '-l, --limit <n>',
  description: `rows to return, newest first (${LIMIT_MIN} to ${LIMIT_MAX}; others are clamped)`,
  defaultText: String(CLI_DEFAULT_LIMIT),
};

function endpointOptions(endpoint: Endpoint): OptionSpec[] {
  const options: OptionSpec[] = [];
  if (hasParam(endpoint, 'tier')) {
    options.push({
      flags: '--tier <tier>',
      description: `only this tier: ${TIERS.join(', ')} (any case; - for _)`,
      complete: { kind: 'values', values: TIERS },
    });
  }
  if (hasParam(endpoint, 'decided')) {
    options.push({ flags: '--decided', description: 'only tenders a person has decided on' });
    options.push({ flags: '--undecided', description: 'only tenders nobody has decided on yet' });
  }
  if (hasParam(endpoint, 'limit')) options.push(limitOption);
  return options;
}

const ENDPOINT_EXAMPLES: Record<string, readonly string[]> = {
  me: ['cdata me', 'cdata me --json | jq -r .tenant'],
  workspaces: ['cdata workspaces', 'cdata workspaces -o csv'],
  companies: ['cdata companies --limit 20', "cdata companies --json | jq -r '.[] | select(.kind == \"SUPPLIER\") | .name'"],
  documents: ['cdata documents --fields title,kind,expiresOn', 'cdata documents -o csv --out documents.csv'],
  obligations: [
    'cdata obligations --limit 200 -o csv --out obligations.csv',
    "cdata obligations --json | jq '[.[] | select(.status == \"OPEN\")] | length'",
  ],
  persons: ['cdata people --fields fullName,email,phone', 'cdata persons -o ndjson'],
  sites: ['cdata sites', "cdata sites --json | jq -r '.[] | select(.status == \"ACTIVE\") | .name'"],
  tenders: [
    'cdata tenders --tier RECOMMENDED',
    'cdata tenders --tier worth-a-look --undecided',
    "cdata tenders --json | jq -r '.[] | [.ocid, .closesOn, .title] | @tsv'",
  ],
  agents: ['cdata agents', 'cdata agents --fields name,authority,restrictedActions'],
};

const resourceCommands: CommandSpec[] = ENDPOINTS.map((endpoint) => ({
  name: endpoint.name,
  aliases: endpoint.aliases,
  summary: endpoint.summary,
  description: `GET ${endpoint.path} (scope ${endpoint.scope}).`,
  options: endpointOptions(endpoint),
  examples: ENDPOINT_EXAMPLES[endpoint.name] ?? [`cdata ${endpoint.name}`],
  endpoint,
  usesApi: true,
  writesOutput: true,
  load: async () => (await import('./resource.js')).resource,
}));

const sandboxCommand: CommandSpec = {
  name: 'sandbox',
  summary: 'Run a local sandbox of the whole API, with demo data and demo keys',
  description: 'Runs in the foreground until Ctrl-C; prints its base URL and one demo key per scope combination.',
  options: [
    { flags: '--host <host>', description: 'address to listen on', defaultText: '127.0.0.1' },
    { flags: '--port <port>', description: 'port to listen on (0: any free port)', defaultText: '4010' },
    { flags: '--latency <ms>', description: 'delay every answer by MS milliseconds', defaultText: '0' },
    { flags: '--fail-rate <p>', description: 'answer this share of requests (0 to 1) with 503', defaultText: '0' },
    {
      flags: '--fault <name>',
      description: 'answer every request with this fault, to test a client',
      complete: { kind: 'values', values: FAULT_NAMES },
    },
  ],
  examples: ['cdata sandbox', 'cdata sandbox --port 0 --latency 200 --fail-rate 0.1', 'cdata sandbox --fault html-200'],
  load: async () => (await import('./sandbox.js')).sandbox,
};

const secretOptions: OptionSpec[] = [
  { flags: '--secret-env <var>', description: 'read the signing secret from environment variable VAR' },
  { flags: '--secret-file <file>', description: 'read the signing secret from FILE (one trailing line break dropped)', complete: { kind: 'files' } },
  // Refused with a message that does not repeat the value (commander would echo --secret=VALUE).
  { flags: '--secret <secret>', description: 'never accepted: the secret stays off the command line', hidden: true },
];

const authCommand: CommandSpec = {
  name: 'auth',
  summary: 'Store, check and remove API keys',
  examples: ['echo "$CDATA_KEY" | cdata auth login --profile prod --base-url https://api.example.com', 'cdata auth status'],
  subcommands: [
    {
      name: 'login',
      summary: 'Store an API key for a profile, after checking it against the API',
      description:
        'The key is read from stdin when stdin is not a terminal, otherwise from a prompt that does not echo. It is never accepted as an argument or option, so it stays out of shell history and process lists.',
      // Declared only to be refused with advice: undeclared, commander would echo `--key=svc_…`
      // in its "unknown option" error.
      args: [{ name: 'key', description: 'not accepted: a key typed here stays in shell history; pipe it on stdin', required: false, hidden: true }],
      options: ['--key <key>', '--token <key>', '--api-key <key>'].map((flags) => ({ flags, description: 'not accepted', hidden: true })),
      examples: [
        'echo "$CDATA_KEY" | cdata auth login --base-url https://api.example.com',
        'cdata auth login --profile staging --base-url https://staging.example.com',
      ],
      usesApi: true,
      load: async () => (await import('./auth.js')).login,
    },
    {
      name: 'status',
      summary: 'Show the profile, base URL, masked key, where it came from, and what /me says',
      examples: ['cdata auth status', 'cdata auth status --profile staging'],
      usesApi: true,
      load: async () => (await import('./auth.js')).status,
    },
    {
      name: 'logout',
      summary: "Remove a profile's stored key",
      examples: ['cdata auth logout', 'cdata auth logout --profile staging'],
      load: async () => (await import('./auth.js')).logout,
    },
  ],
};

const profileCommand: CommandSpec = {
  name: 'profile',
  summary: 'List, choose and remove profiles',
  examples: ['cdata profile list', 'cdata profile use staging'],
  subcommands: [
    {
      name: 'list',
      summary: 'List profiles; the default is marked',
      examples: ['cdata profile list', "cdata profile list --json | jq -r '.[].name'"],
      writesOutput: true,
      load: async () => (await import('./profile.js')).list,
    },
    {
      name: 'use',
      summary: 'Make a profile the default',
      args: [{ name: 'name', description: 'profile name', required: true, complete: { kind: 'profiles' } }],
      examples: ['cdata profile use prod'],
      load: async () => (await import('./profile.js')).use,
    },
    {
      name: 'remove',
      summary: 'Remove a profile and its stored key',
      args: [{ name: 'name', description: 'profile name', required: true, complete: { kind: 'profiles' } }],
      examples: ['cdata profile remove staging'],
      load: async () => (await import('./profile.js')).remove,
    },
  ],
};

const settingArg = { name: 'key', description: 'base-url, output or timeout', required: true, complete: { kind: 'settings' } } as const;

const configCommand: CommandSpec = {
  name: 'config',
  summary: "Read and change a profile's settings",
  examples: ['cdata config set output json', 'cdata config get base-url --profile prod'],
  subcommands: [
    {
      name: 'get',
      summary: 'Print a setting of the profile',
      args: [settingArg],
      examples: ['cdata config get base-url'],
      load: async () => (await import('./config.js')).get,
    },
    {
      name: 'set',
      summary: 'Change a setting of the profile',
      args: [settingArg, { name: 'value', description: 'the new value', required: true, complete: { kind: 'settingValue' } }],
      examples: ['cdata config set output json', 'cdata config set timeout 60 --profile prod'],
      load: async () => (await import('./config.js')).set,
    },
    {
      name: 'unset',
      summary: 'Remove a setting from the profile',
      args: [settingArg],
      examples: ['cdata config unset output'],
      load: async () => (await import('./config.js')).unset,
    },
    {
      name: 'path',
      summary: "Print the config file's path",
      examples: ['cdata config path'],
      load: async () => (await import('./config.js')).path,
    },
  ],
};

const exportCommand: CommandSpec = {
  name: 'export',
  summary: 'Write every list (or the named ones) to files, atomically, with a manifest',
  description:
    'For cron: the files and manifest.json are written into a new folder (DIR/..<time>.<random>) and committed together by one rename of the link DIR/..data; each DIR/<file> is a link through it. A reader, or a run killed at any instant, sees the previous export whole or the new one. A list that fails keeps its previous file; earlier files (--stamp) are kept. Exits 0 only when every resource succeeded.',
  args: [{ name: 'resource', description: 'lists to export (default: all)', required: false, variadic: true, complete: { kind: 'resources' } }],
  options: [
    { flags: '--dir <dir>', description: 'folder to write to (created if missing)', complete: { kind: 'dirs' }, required: true },
    { flags: '-l, --limit <n>', description: `rows per list (${LIMIT_MIN} to ${LIMIT_MAX})`, defaultText: String(LIMIT_MAX) },
    { flags: '--stamp', description: 'time-stamped file names, e.g. tenders-2026-11-22T0600Z.csv' },
  ],
  examples: ['cdata export --dir /srv/exports', 'cdata export tenders obligations --dir ./out -o json --stamp'],
  usesApi: true,
  writesOutput: 'use --dir for the folder',
  formats: EXPORT_FORMATS,
  load: async () => (await import('./export.js')).exportLists,
};

const webhookCommand: CommandSpec = {
  name: 'webhook',
  summary: 'Verify, receive, send and test signed webhook deliveries',
  examples: ['cdata webhook listen --secret-env WEBHOOK_SECRET', 'cdata webhook check https://hooks.example.com/cdata --secret-env WEBHOOK_SECRET'],
  subcommands: [
    {
      name: 'verify',
      summary: 'Check a delivery: signature over the raw body, then JSON, then timestamp',
      options: [
        { flags: '--signature <hex>', description: 'the X-Service-Signature header value' },
        { flags: '--body-file <file>', description: 'the raw body (default: stdin)', complete: { kind: 'files' } },
        ...secretOptions,
        { flags: '--tolerance <seconds>', description: 'largest allowed |now - timestamp|', defaultText: '300' },
      ],
      examples: ['cdata webhook verify --signature "$SIG" --body-file body.json --secret-env WEBHOOK_SECRET'],
      load: async () => (await import('./webhook.js')).verify,
    },
    {
      name: 'listen',
      summary: 'Run a receiver that follows the rules and prints accepted events as JSON lines',
      options: [
        { flags: '--host <host>', description: 'address to listen on', defaultText: '127.0.0.1' },
        { flags: '--port <port>', description: 'port to listen on', defaultText: '8787' },
        { flags: '--path <path>', description: 'path to accept deliveries on', defaultText: '/' },
        ...secretOptions,
        { flags: '--tolerance <seconds>', description: 'largest allowed |now - timestamp|', defaultText: '300' },
      ],
      examples: ['cdata webhook listen --secret-env WEBHOOK_SECRET --port 8787'],
      load: async () => (await import('./webhook.js')).listen,
    },
    {
      name: 'ping',
      summary: 'Send a signed ping to a receiver, as the platform does',
      args: [{ name: 'url', description: 'receiver URL (https://, or http:// on loopback)', required: true }],
      options: secretOptions,
      examples: ['cdata webhook ping http://127.0.0.1:8787/ --secret-env WEBHOOK_SECRET'],
      load: async () => (await import('./webhook.js')).ping,
    },
    {
      name: 'check',
      summary: "Test a receiver: valid, forged, tampered, stale and unknown deliveries",
      args: [{ name: 'url', description: 'receiver URL (https://, or http:// on loopback)', required: true }],
      options: secretOptions,
      examples: ['cdata webhook check https://hooks.example.com/cdata --secret-file ./secret'],
      load: async () => (await import('./webhook.js')).check,
    },
  ],
};

const completionCommand: CommandSpec = {
  name: 'completion',
  summary: 'Print the shell completion script for bash, zsh or fish',
  args: [{ name: 'shell', description: 'bash, zsh or fish', required: true, complete: { kind: 'values', values: ['bash', 'zsh', 'fish'] } }],
  examples: ['cdata completion bash > ~/.local/share/bash-completion/completions/cdata'],
  load: async () => (await import('./completion.js')).completion,
};

export const COMMANDS: readonly CommandSpec[] = [
  ...resourceCommands,
  exportCommand,
  authCommand,
  profileCommand,
  configCommand,
  webhookCommand,
  sandboxCommand,
  completionCommand,
];

/** The command (or subcommand) spec at a path such as ['auth', 'login']. */
export function findCommand(path: readonly string[]): CommandSpec | undefined {
  let specs: readonly CommandSpec[] = COMMANDS;
  let found: CommandSpec | undefined;
  for (const name of path) {
    found = specs.find((spec) => spec.name === name || spec.aliases?.includes(name));
    if (!found) return undefined;
    specs = found.subcommands ?? [];
  }
  return found;
}
