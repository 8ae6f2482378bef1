// The global options (PRODUCT.md section 2), accepted before or after the command.
import { FORMATS } from '../config/schema.js';
import { COLOR_MODES, DEFAULTS } from '../config/resolve.js';
import type { OptionSpec } from './spec.js';

export const GLOBAL_OPTIONS: readonly OptionSpec[] = [
  { flags: '-p, --profile <name>', description: 'profile to use (env CDATA_PROFILE)', complete: { kind: 'profiles' } },
  { flags: '--base-url <url>', description: 'API origin, https://host or https://host/api/v1 (env CDATA_BASE_URL)' },
  { flags: '-o, --output <format>', description: `output format: ${FORMATS.join(', ')} (default: table on a terminal, else tsv)`, complete: { kind: 'values', values: FORMATS } },
  { flags: '--json', description: 'same as -o json' },
  { flags: '-f, --fields <a,b,c>', description: 'fields to show, in this order', complete: { kind: 'fields' } },
  { flags: '--no-header', description: 'no header row (table, csv, tsv)' },
  { flags: '--bom', description: 'start csv output with a UTF-8 byte order mark (for Excel)' },
  { flags: '--out <file>', description: 'write the output to FILE atomically instead of stdout', complete: { kind: 'files' } },
  { flags: '--timeout <seconds>', description: 'whole-request deadline', defaultText: String(DEFAULTS.timeoutSeconds) },
  { flags: '--retries <n>', description: 'retries after 5xx, timeouts and network errors', defaultText: String(DEFAULTS.retries) },
  { flags: '--max-wait <seconds>', description: 'longest Retry-After to wait through on 429', defaultText: String(DEFAULTS.maxWaitSeconds) },
  { flags: '--color <when>', description: 'colour: auto, always or never (env NO_COLOR, FORCE_COLOR)', complete: { kind: 'values', values: COLOR_MODES } },
  { flags: '-q, --quiet', description: 'no notes on stderr, errors only' },
  { flags: '--debug', description: 'trace requests on stderr, key redacted (env CDATA_DEBUG=1)' },
  { flags: '--sandbox', description: 'run against an in-process sandbox with demo data (no account needed)' },
];
