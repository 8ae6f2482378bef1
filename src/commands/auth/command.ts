// `cdata auth login | status | logout`.
import { UsageError } from '../../core/errors.js';
import { parseKeyCommand } from '../../config/settings.js';
import { refused, value } from '../../core/option.js';
import { defineCommand } from '../../command-kit/command.js';

/** A key typed on the command line, in whatever form: refused with the way that works, never echoed. */
const keyOnArgv = (also = '') =>
  new UsageError(
    'cdata does not take the key on the command line, where shell history and process lists keep it; pipe it instead: echo "$KEY" | cdata auth login',
    {
      hint: `If that was a real key, it may now be in your shell history: consider revoking it and creating a new one.${also}`,
    },
  );

export const LOGIN_OPTIONS = {
  keyCommand: value(
    '--key-command <cmd>',
    'store CMD instead of a key: it prints the key (its first line) whenever one is needed',
    parseKeyCommand,
  ),
  // Declared only to be refused with advice: undeclared, commander would echo `--key=svc_…` in its
  // "unknown option" error.
  key: refused('--key <key>', () => keyOnArgv()),
  token: refused('--token <key>', () => keyOnArgv()),
  apiKey: refused('--api-key <key>', () => keyOnArgv()),
};

// A word after the options is also what an unquoted --key-command leaves over (`--key-command pass show x`).
const wordOnArgv = () =>
  keyOnArgv(" If it was part of a --key-command, quote the whole command: --key-command 'pass show cdata/prod'.");

export const LOGIN_ARGS = [
  { name: 'key', description: 'not accepted', hidden: true, variadic: true, refuse: wordOnArgv },
] as const;

export const AUTH_COMMAND = defineCommand({
  name: 'auth',
  summary: 'Store, check and remove API keys',
  examples: [
    'echo "$CDATA_KEY" | cdata auth login --profile prod --base-url https://api.example.com',
    'cdata auth status',
  ],
  subcommands: [
    defineCommand({
      name: 'login',
      summary: 'Store an API key for a profile, after checking it against the API',
      description:
        'The key is read from stdin when stdin is not a terminal, otherwise from a prompt that does not echo. It is never accepted as an argument or option, so it stays out of shell history and process lists. With --key-command, the key stays in your password manager: the command is stored, run through /bin/sh -c (stdin closed, 10 s timeout) whenever a command needs the key, and its first line of output is the key.',
      args: LOGIN_ARGS,
      options: LOGIN_OPTIONS,
      examples: [
        'echo "$CDATA_KEY" | cdata auth login --base-url https://api.example.com',
        'cdata auth login --profile staging --base-url https://staging.example.com',
        "cdata auth login --profile prod --base-url https://api.example.com --key-command 'pass show cdata/prod'",
      ],
      usesApi: true,
      refusesSandbox: {
        why: 'that sandbox stops when the command ends',
        hint: 'Run `cdata sandbox` in another terminal and log in to the URL it prints, with one of its demo keys.',
      },
    }),
    defineCommand({
      name: 'status',
      summary: 'Show the profile, base URL, masked key, where it came from, and what /me says',
      examples: ['cdata auth status', 'cdata auth status --profile staging'],
      usesApi: true,
      // -o json or ndjson: the same facts as one JSON document; without it (or with a profile's
      // stored format of another kind), lines of text.
      formats: ['json', 'ndjson'],
      formatDefault: 'lines of text',
    }),
    defineCommand({
      name: 'logout',
      summary: "Remove a profile's stored key or key command",
      examples: ['cdata auth logout', 'cdata auth logout --profile staging'],
      usesProfile: true,
    }),
  ],
});
