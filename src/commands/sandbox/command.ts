// `cdata sandbox`: the whole API on this machine, with demo data and demo keys.
import { value } from '../../core/option.js';
import { parseInteger, parseName, parseShare } from '../../core/parse.js';
import { FAULT_NAMES } from '../../sandbox/fault-names.js';
import { MAX_DAY } from '../../sandbox/max-day.js';
import { defineCommand } from '../../command-kit/command.js';

export const SANDBOX_OPTIONS = {
  host: value('--host <host>', 'address to listen on', (raw) => raw, { default: '127.0.0.1' }),
  port: value('--port <port>', 'port to listen on (0: any free port)', (raw) => parseInteger('--port', raw, 0, 65535), {
    default: 4010,
  }),
  latency: value(
    '--latency <ms>',
    'delay every answer by MS milliseconds',
    (raw) => parseInteger('--latency', raw, 0, 600_000),
    { default: 0 },
  ),
  failRate: value(
    '--fail-rate <p>',
    'answer this share of requests (0 to 1) with 503',
    (raw) => parseShare('--fail-rate', raw),
    { default: 0 },
  ),
  day: value(
    '--day <n>',
    `demo data moved forward N days: some rows added, changed and removed (0 to ${MAX_DAY})`,
    (raw) => parseInteger('--day', raw, 0, MAX_DAY),
    {
      default: 0,
    },
  ),
  fault: value(
    '--fault <name>',
    'answer every request with this fault, to test a client',
    (raw) => parseName(raw, FAULT_NAMES, '--fault'),
    {
      complete: { kind: 'values', values: FAULT_NAMES },
    },
  ),
};

export const SANDBOX_COMMAND = defineCommand({
  name: 'sandbox',
  summary: 'Run a local sandbox of the whole API, with demo data and demo keys',
  description: 'Runs in the foreground until Ctrl-C; prints its base URL and one demo key per scope combination.',
  options: SANDBOX_OPTIONS,
  examples: [
    'cdata sandbox',
    'cdata sandbox --port 0 --latency 200 --fail-rate 0.1',
    'cdata sandbox --day 1',
    'cdata sandbox --fault html-200',
  ],
});
