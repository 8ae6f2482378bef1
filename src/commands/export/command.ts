// `cdata export`: every list (or the named ones) to files in a folder, for cron.
import { LIMIT_MAX, LIMIT_MIN, parseLimit } from '../../core/params.js';
import { EXPORT_FORMATS } from '../../config/schema.js';
import { flag, text, value } from '../../core/option.js';
import { DEFAULT_CONCURRENCY, MAX_CONCURRENCY, parseConcurrency } from '../../export/profiles/options.js';
import { parseShard } from '../../export/profiles/shard.js';
import { defineCommand } from '../../command-kit/command.js';
import { UsageError } from '../../core/errors.js';

export const EXPORT_OPTIONS = {
  dir: text('--dir <dir>', 'folder to write to (created if missing)', {
    complete: { kind: 'dirs' },
    required: () =>
      new UsageError('export needs a folder: --dir DIR', { hint: 'e.g. cdata export --dir /srv/exports' }),
  }),
  limit: value('-l, --limit <n>', `rows per list (${LIMIT_MIN} to ${LIMIT_MAX})`, parseLimit, {
    default: { value: LIMIT_MAX },
    defaultText: String(LIMIT_MAX),
  }),
  stamp: flag('--stamp', 'time-stamped file names, e.g. tenders-2026-11-22T0600Z.csv'),
  profiles: text(
    '--profiles <selection>',
    "export these profiles, each to DIR/<profile>/: names or shell patterns, comma-separated ('client-*')",
    { complete: { kind: 'profiles', list: true }, conflicts: ['allProfiles'] },
  ),
  allProfiles: flag('--all-profiles', 'export every profile, each to DIR/<profile>/', { conflicts: ['profiles'] }),
  concurrency: value(
    '--concurrency <n>',
    `with --profiles: requests in flight across all profiles (1 to ${MAX_CONCURRENCY})`,
    parseConcurrency,
    { defaultText: String(DEFAULT_CONCURRENCY) },
  ),
  shard: value(
    '--shard <i/n>',
    'with --profiles: only the profiles of shard I of N (a stable hash of the name)',
    parseShard,
  ),
};

export const EXPORT_ARGS = [
  { name: 'resource', description: 'lists to export (default: all)', variadic: true, complete: { kind: 'resources' } },
] as const;

export const EXPORT_COMMAND = defineCommand({
  name: 'export',
  summary: 'Write every list (or the named ones) to files, atomically, with a manifest',
  description:
    'For cron: the files and manifest.json are written into a new folder (DIR/..<time>.<random>) and committed together by one rename of the link DIR/..data; each DIR/<file> is a link through it. A reader, or a run killed at any instant, sees the previous export whole or the new one. A list that fails keeps its previous file; earlier files (--stamp) are kept. Exits 0 only when every resource succeeded and none had more rows than the API lists (a gap: exit 9). With --profiles or --all-profiles, each profile is exported to DIR/<profile>/ as `cdata -p PROFILE export` would, DIR/run.json records the run, and the exit code is 10 when any profile failed or was skipped (docs/many-profiles.md).',
  args: EXPORT_ARGS,
  options: EXPORT_OPTIONS,
  examples: [
    'cdata export --dir /srv/exports',
    'cdata export tenders obligations --dir ./out -o json --stamp',
    "cdata export --profiles 'client-*' --dir /srv/exports --concurrency 16",
  ],
  usesApi: true,
  writesOutput: 'use --dir for the folder',
  formats: EXPORT_FORMATS,
  formatDefault: 'csv',
});
