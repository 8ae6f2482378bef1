// The global options (docs/keys-and-profiles.md), accepted before or after the command. Their values
// reach settings resolution (src/config/resolve.ts: flag > env > profile > default) and output.
import { COLOR_MODES, DEFAULTS } from '../config/resolve.js';
import { FORMATS } from '../config/schema.js';
import { blankValue, flag, negatable, text, value, type Values } from '../core/option.js';
import { parseChoice, parseInteger, parseSeconds } from '../core/parse.js';

/** The formats that print a header row, which --no-header leaves out. */
export const HEADED_FORMATS: readonly string[] = ['table', 'csv', 'tsv'];

/** --no-header's help, for the formats a command prints (export: csv, tsv). */
export function headerDescription(formats: readonly string[]): string {
  return `no header row (${formats.filter((format) => HEADED_FORMATS.includes(format)).join(', ')})`;
}

export const GLOBAL_OPTIONS = {
  profile: text('-p, --profile <name>', 'profile to use (env CDATA_PROFILE)', { complete: { kind: 'profiles' } }),
  baseUrl: text('--base-url <url>', 'API origin, https://host or https://host/api/v1 (env CDATA_BASE_URL)'),
  output: value(
    '-o, --output <format>',
    `output format: ${FORMATS.join(', ')} (default: table on a terminal, else tsv)`,
    (raw) => parseChoice(raw, FORMATS, '--output'),
    {
      complete: { kind: 'values', values: FORMATS },
    },
  ),
  json: flag('--json', 'same as -o json'),
  fields: text('-f, --fields <a,b,c>', 'fields to show, in this order', { complete: { kind: 'fields' } }),
  header: negatable('--no-header', headerDescription(HEADED_FORMATS)),
  bom: flag('--bom', 'start csv output with a UTF-8 byte order mark (for Excel)'),
  out: value('--out <file>', 'write the output to FILE atomically instead of stdout', parseOutFile, {
    complete: { kind: 'files' },
  }),
  timeout: value('--timeout <seconds>', 'whole-request deadline', (raw) => parseSeconds('--timeout', raw, false), {
    defaultText: String(DEFAULTS.timeoutSeconds),
  }),
  retries: value(
    '--retries <n>',
    'retries after 5xx, timeouts and network errors',
    (raw) => parseInteger('--retries', raw, 0, 10),
    {
      defaultText: String(DEFAULTS.retries),
    },
  ),
  maxWait: value(
    '--max-wait <seconds>',
    'longest Retry-After to wait through on 429',
    (raw) => parseSeconds('--max-wait', raw, true),
    {
      defaultText: String(DEFAULTS.maxWaitSeconds),
    },
  ),
  color: value(
    '--color <when>',
    'colour: auto, always or never (env NO_COLOR, FORCE_COLOR)',
    (raw) => parseChoice(raw, COLOR_MODES, '--color'),
    {
      complete: { kind: 'values', values: COLOR_MODES },
    },
  ),
  quiet: flag('-q, --quiet', 'no notes on stderr, errors only'),
  debug: flag('--debug', 'trace requests on stderr, key redacted (env CDATA_DEBUG=1)'),
  // The sandbox is its own API: a --base-url beside it would go unused, in silence (CDATA_BASE_URL,
  // set for every command, is only passed over).
  sandbox: flag('--sandbox', 'run against an in-process sandbox with demo data (no account needed)', {
    conflicts: ['baseUrl'],
  }),
  pager: negatable(
    '--no-pager',
    "never page data at a terminal (the pager otherwise: CDATA_PAGER, the profile's pager, PAGER, else less -FRX)",
  ),
};

export type GlobalValues = Values<typeof GLOBAL_OPTIONS>;

/** `--out ''` (an empty variable, say) names no file: said so, not as a rename that failed. */
function parseOutFile(raw: string): string {
  if (raw.trim() === '') throw blankValue('--out', raw, 'a file name');
  return raw;
}
