// `cdata changes`: the changes the last export into --dir recorded (DIR/changes.ndjson), those of
// the named lists and kinds, printed through the one output path in any format. Lists with
// nothing to compare (a baseline, a failure) are named on stderr; so is a folder with no export.
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { UsageError } from '../../core/errors.js';
import { sanitize } from '../../core/sanitize.js';
import { collectGarbage } from '../../io/collect.js';
import { drained } from '../../io/index.js';
import { changeLines } from '../../export/change-lines.js';
import { CHANGE_KINDS, CHANGE_LINE_VIEW, CHANGE_VIEW, type ChangeKind } from '../../export/changes-view.js';
import { readLastExport, type ListOutcome } from '../../export/last-export.js';
import { listsNamed } from '../../export/plan.js';
import { runFolderMark } from '../../export/profiles/run-record.js';
import { outputFormat } from '../../output/format.js';
import { isJsonFormat, type Format } from '../../config/schema.js';
import type { Output, ViewOf } from '../../output/print.js';
import type { View } from '../../core/endpoints.js';
import type { JsonValue } from '../../core/json-value.js';
import type { Change } from '../../export/changes.js';
import { queryOutput } from '../shared/query.js';
import type { CommandContext, Handler } from '../../command-kit/command.js';
import type { CHANGES_ARGS, CHANGES_OPTIONS } from './command.js';

type ChangesContext = CommandContext<typeof CHANGES_OPTIONS, typeof CHANGES_ARGS>;

export const changes: Handler<typeof CHANGES_OPTIONS, typeof CHANGES_ARGS> = async (context) => {
  const { options, io, global } = context;
  const named = context.args[0];
  const lists = named.length === 0 ? undefined : listsNamed(named, 'changes').map((endpoint) => endpoint.name);
  // json and ndjson print the changes as changes.ndjson holds them; the others a line each.
  // Chosen (and --fields checked against it) before anything is read.
  const format = outputFormat(context.settings().output, global.out, io.stdout);
  const asFile = isJsonFormat(format);
  const output =
    options.query === undefined
      ? context.output(asFile ? CHANGE_VIEW : CHANGE_LINE_VIEW)
      : await changesQueryOutput(context, options.query, asFile);

  const dir = resolve(options.dir);
  context.beforeWork();
  const last = readLastExport(dir);
  if (last.kind === 'none') {
    const profiles = profileFolders(dir);
    if (profiles !== undefined) throw perProfile(dir, profiles);
    // No changes is an empty list, printed as one (`[]`, a CSV header), as after a baseline.
    await output.print([]);
    context.note(
      `no export in ${dir} yet, so no changes: cdata export --dir ${dir} records them from its second run on`,
    );
    return 0;
  }
  if (last.kind === 'unrecorded') {
    await output.print([]);
    context.note(
      `the export in ${dir} was written by a cdata without change detection: the next export is every list's baseline, and the one after it records changes`,
    );
    return 0;
  }
  const shown = lists ?? last.lists.map((list) => list.resource);
  noteGaps(context, shown, last.lists);
  noteUncompared(context, shown, last.lists);
  const batches = last.changes((change) => shown.includes(change.resource) && options.change.includes(change.change));
  const printed = (batch: Change[]) => (asFile || options.query !== undefined ? batch : changeLines(batch));
  let count = 0;
  if (streams(context, format)) {
    // A batch at a time, each printed as it is read: the header (and BOM) once.
    let first = true;
    for await (const batch of batches) {
      count += batch.length;
      await output.print(printed(batch), !first);
      first = false;
      // A pipe read more slowly than it is written would otherwise hold all of it.
      await drained(io.stdout);
      // What large changes left is collected before more are read (as an export does).
      if (batch.length > 0 && last.large()) collectGarbage();
    }
    if (first) await output.print([]);
  } else {
    const chosen: Change[] = [];
    for await (const batch of batches) for (const change of batch) chosen.push(change);
    count = chosen.length;
    await output.print(printed(chosen));
  }
  // An empty table says so, unless the lines above have said why for every list (or the query's result, which says so itself).
  const compared = shown.filter((name) =>
    last.lists.some((list) => list.resource === name && list.status === 'ok' && list.changes),
  );
  const kinds = options.change;
  const filtered = kinds.length < CHANGE_KINDS.length;
  if (count === 0 && format === 'table' && compared.length > 0 && options.query === undefined) {
    const what = filtered ? `No ${kinds.join(' or ')} rows` : 'No changes';
    context.note(
      `${what}${lists ? ` in ${compared.join(', ')}` : ''} in the last export${last.exportedAt ? ` (${last.exportedAt})` : ''}.${filtered ? leftOut(compared, last.lists, kinds) : ''}`,
    );
  }
  // A list cut at the limit cannot tell a row removed from one pushed past the limit: said when
  // removals are asked for, or no removal listed reads as "nothing was removed". Asked for by
  // --change in any format; by default at a terminal, where a person reads the table (a script's
  // plain `changes -o ndjson` keeps a quiet stderr; the manifest says `removed: null`).
  const unknown =
    kinds.includes('removed') && (filtered || format === 'table')
      ? compared.filter((name) => last.lists.find((list) => list.resource === name)?.changes?.removed === null)
      : [];
  if (unknown.length > 0 && options.query === undefined)
    context.note(
      `Removed rows in ${unknown.join(', ')} are not known: the last export got as many rows as it asked for, so a row missing from it may only have moved past the limit.`,
    );
  return 0;
};

/** ` It found 2 added and 1 changed (--change shows them).`: what a --change filter left out. */
function leftOut(names: readonly string[], outcomes: readonly ListOutcome[], kinds: readonly ChangeKind[]): string {
  const others = CHANGE_KINDS.filter((kind) => !kinds.includes(kind));
  const found = others
    .map((kind) => {
      const total = names.reduce((sum, name) => {
        const counts = outcomes.find((list) => list.resource === name)?.changes;
        return sum + (counts?.[kind] ?? 0);
      }, 0);
      return total > 0 ? `${total} ${kind}` : '';
    })
    .filter(Boolean);
  return found.length > 0 ? ` It found ${found.join(' and ')} (--change ${others.join(',')} shows them).` : '';
}

/**
 * Whether the changes print a batch at a time: ndjson, csv and tsv, to stdout that is no terminal
 * (a pipe, a file), without --query or --out. Otherwise (a table's widths, json's one array, a
 * query's one result, --out's one atomic file, the pager) they are all read first.
 */
function streams(context: ChangesContext, format: Format): boolean {
  const { io, global, options } = context;
  return (
    (format === 'ndjson' || format === 'csv' || format === 'tsv') &&
    options.query === undefined &&
    global.out === undefined &&
    io.stdout.isTTY !== true
  );
}

/**
 * --query over the change objects, as -o json prints them. Its result prints by the rules of any
 * query's (docs/query.md), the change objects being the records: so a result that is changes
 * unchanged (a filter, a sort) prints in a table, csv and tsv as lines, as without --query.
 */
async function changesQueryOutput(context: ChangesContext, expression: string, asFile: boolean): Promise<Output> {
  if (asFile) return queryOutput(context, CHANGE_VIEW, expression);
  const lines = (viewOf: View | ViewOf, result: JsonValue) =>
    (typeof viewOf === 'function' ? viewOf(result) : viewOf) === CHANGE_VIEW;
  return queryOutput(
    {
      note: (message) => context.note(message),
      output(viewOf) {
        let shown: JsonValue | undefined; // the lines printed in place of the query's result
        const out = context.output((printed) =>
          printed === shown ? CHANGE_LINE_VIEW : typeof viewOf === 'function' ? viewOf(printed) : viewOf,
        );
        return {
          format: out.format,
          async print(result) {
            shown = lines(viewOf, result) ? changeLines(result as Change[]) : undefined;
            await out.print(shown ?? result);
          },
        };
      },
    },
    CHANGE_VIEW,
    expression,
  );
}

/**
 * The lists asked for whose last export missed rows at the API's cap (docs/exports.md):
 * said even under --quiet, as the export said it, since the changes shown are then not all.
 */
function noteGaps(context: ChangesContext, shown: readonly string[], outcomes: readonly ListOutcome[]): void {
  for (const list of outcomes) {
    if (list.gap !== true || !shown.includes(list.resource)) continue;
    // From the manifest as a file: only strings are times.
    const time = (value: unknown) => (typeof value === 'string' ? value : null);
    const [after, before] = [time(list.unseen?.after), time(list.unseen?.before)];
    const window = [after === null ? '' : ` after ${after}`, before === null ? '' : ` and before ${before}`]
      .join('')
      .replace(/^ and/, '');
    context.io.stderr.write(
      `${sanitize(`warning: ${list.resource}: the last export missed the rows created${window || ' before its oldest row'} (more than the API returns at once): these changes are all that could be seen`)}\n`,
    );
  }
}

/** The lists asked for that the last export did not compare, a line for each reason: not exported, failed, a baseline. */
function noteUncompared(context: ChangesContext, shown: readonly string[], outcomes: readonly ListOutcome[]): void {
  const outcome = (name: string) => outcomes.find((list) => list.resource === name);
  const absent = shown.filter((name) => outcome(name) === undefined);
  const failed = shown.filter((name) => outcome(name)?.status === 'error');
  // A failed list with no earlier export in place has none to compare with: its next success is its baseline.
  const failedBefore = failed.filter((name) => outcome(name)!.kept);
  const neverExported = failed.filter((name) => !outcome(name)!.kept);
  const baselines = shown.filter((name) => outcome(name)?.status === 'ok' && !outcome(name)!.changes);
  if (absent.length > 0) context.note(`no changes in ${absent.join(', ')}: not in the last export`);
  if (failedBefore.length > 0)
    context.note(
      `no changes in ${failedBefore.join(', ')}: failed in the last export (the next successful export compares with the last successful one)`,
    );
  if (neverExported.length > 0)
    context.note(
      `no changes in ${neverExported.join(', ')}: failed in the last export, and never exported before it (the next successful export is the baseline)`,
    );
  if (baselines.length > 0)
    context.note(
      `no changes in ${baselines.join(', ')}: the last export was the baseline (nothing earlier to compare with)`,
    );
}

/** The folders of DIR when it holds an export --profiles run (runFolderMark); else undefined. */
function profileFolders(dir: string): string[] | undefined {
  if (runFolderMark(dir) === undefined) return undefined;
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.'))
    .map((entry) => entry.name)
    .sort();
}

/** `changes --dir ROOT` of a many-profiles run: each profile's changes are in its own folder. */
function perProfile(dir: string, profiles: readonly string[]): UsageError {
  const shown = profiles.length > 5 ? [...profiles.slice(0, 5), `${profiles.length - 5} more`] : profiles;
  return new UsageError(
    `${dir} holds an export --profiles run: its changes are recorded per profile, in each profile's folder`,
    {
      hint:
        profiles.length === 0
          ? "Give --dir a profile's folder: DIR/<profile>."
          : `Give --dir a profile's folder: cdata changes --dir ${join(dir, profiles[0]!)} (profiles here: ${shown.join(', ')}).`,
    },
  );
}
