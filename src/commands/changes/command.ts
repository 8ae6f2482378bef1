// `cdata changes`: what the last export into a folder found changed, in any format.
import { hintOf, UsageError } from '../../core/errors.js';
import { text, value } from '../../core/option.js';
import { sanitize } from '../../core/sanitize.js';
import { didYouMean } from '../../core/similar.js';
import { CHANGE_KINDS, CHANGE_LINE_VIEW, type ChangeKind } from '../../export/changes-view.js';
import { defineCommand } from '../../command-kit/command.js';
import { QUERY_OPTIONS } from '../shared/query-options.js';

/** `added,changed`: the kinds asked for, each checked (a usage error names the valid ones). */
export function parseKinds(raw: string): readonly ChangeKind[] {
  const kinds = raw.split(',').map((kind) => kind.trim().toLowerCase());
  const wrong = kinds.find((kind) => !CHANGE_KINDS.some((valid) => valid === kind));
  if (wrong !== undefined) {
    throw new UsageError(
      `--change takes ${CHANGE_KINDS.join(', ')}, or several of them with commas (got '${sanitize(wrong === '' ? raw : wrong)}')`,
      hintOf(didYouMean(wrong, CHANGE_KINDS)),
    );
  }
  return CHANGE_KINDS.filter((kind) => kinds.includes(kind));
}

export const CHANGES_OPTIONS = {
  dir: text('--dir <dir>', 'the folder cdata export writes to', {
    complete: { kind: 'dirs' },
    required: () =>
      new UsageError('changes needs the export folder: --dir DIR', { hint: 'e.g. cdata changes --dir /srv/exports' }),
  }),
  change: value(
    '--change <kinds>',
    `only these kinds of change: ${CHANGE_KINDS.join(', ')} (comma-separated)`,
    parseKinds,
    {
      default: CHANGE_KINDS,
      defaultText: CHANGE_KINDS.join(','),
      complete: { kind: 'values', values: CHANGE_KINDS, list: true },
    },
  ),
  // Over the change objects, as -o json prints them: its help says so.
  query: {
    ...QUERY_OPTIONS.query,
    description: 'JMESPath expression over the change objects, as -o json prints them (docs/query.md)',
  },
};

export const CHANGES_ARGS = [
  { name: 'resource', description: 'lists to show (default: all)', variadic: true, complete: { kind: 'resources' } },
] as const;

export const CHANGES_COMMAND = defineCommand({
  name: 'changes',
  summary: 'Show what the last export into a folder found added, changed and removed',
  description:
    "Every cdata export compares each list with its previous successful export in the same --dir, row by row (by ocid, name or id), and writes DIR/changes.ndjson. This prints those changes: json and ndjson as the file holds them; a table, csv and tsv one line per change, with the record's title and what changed (decision: — → BID). A list exported for the first time (its baseline), or that failed, has none. --query sees the change objects, as -o json prints them.",
  args: CHANGES_ARGS,
  options: CHANGES_OPTIONS,
  examples: [
    'cdata changes --dir /srv/exports',
    'cdata changes --dir /srv/exports tenders --change added -o json',
    'cdata changes --dir /srv/exports obligations --change changed -o csv',
    'cdata changes --dir /srv/exports tenders --change added --query "[?row.tier==\'RECOMMENDED\'].row.ocid"',
  ],
  view: CHANGE_LINE_VIEW,
  writesOutput: true,
});
