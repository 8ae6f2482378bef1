// `cdata export`: every list (or the named ones) to files, for cron. All requests run at once on
// one client (shared keep-alive connections), so the export takes about as long as the slowest
// list. Each file is written into a new generation of the folder as its answer arrives; once
// every request has settled, the files of earlier exports are carried along, the manifest is
// written, and one rename commits the lot (src/export/generation.ts). Until then readers, and a
// run killed at any instant, see the previous export whole. A resource that fails keeps its
// previous file. Each list is compared with its previous export (src/export/detect.ts): its
// state goes in beside its file, and changes.ndjson with the manifest. Exit 0 only when
// everything succeeded, else the highest code. With --profiles or --all-profiles, each profile's
// export is this one, run by profiles.ts.
import { EXIT, UsageError } from '../../core/errors.js';
import { sanitize, sanitizeJson } from '../../core/sanitize.js';
import { clampNote } from '../../core/params.js';
import { withFolderLock } from '../../export/folder.js';
import type { Manifest, ResourceWritten } from '../../export/manifest.js';
import { type GapNotice, gapLines } from '../../export/coverage.js';
import { planExport, prepareFolder } from '../../export/plan.js';
import { Progress } from '../../export/progress.js';
import { closingLine, groupFailures, groupLines } from '../../export/summary.js';
import type { Handler } from '../../command-kit/command.js';
import { formatIgnores } from '../../command-kit/applies.js';
import { openClient, requireBaseUrl } from '../shared/api.js';
import type { EXPORT_ARGS, EXPORT_OPTIONS } from './command.js';
import { exportInto, type Exported, type ExportContext, type Failed, type Outcome } from './run.js';
import { canRedraw } from '../../io/index.js';
import type { JsonObject } from '../../core/json-value.js';

export const exportLists: Handler<typeof EXPORT_OPTIONS, typeof EXPORT_ARGS> = async (context) => {
  const { io, options, global } = context;
  if (options.profiles !== undefined || options.allProfiles)
    return (await import('./profiles.js')).exportProfiles(context);
  if (options.concurrency !== undefined || options.shard !== undefined) {
    throw new UsageError(
      `${options.shard !== undefined ? '--shard' : '--concurrency'} applies to export --profiles or --all-profiles`,
    );
  }
  const startedAt = io.now();
  const request = { ...options, resources: context.args[0], fields: global.fields, output: context.settings().output };
  const plan = planExport(request, startedAt);
  for (const unused of formatIgnores(plan.format, global)) context.warn(unused);
  // Said on a terminal only: a cron job's successful export prints nothing (the manifest has the limit used).
  const clamped = clampNote(plan.limit);
  if (clamped && io.stderr.isTTY) context.note(clamped);
  // At a terminal that can redraw, without -q: live lines (where they fit) and a closing line.
  const atTerminal = canRedraw(io, io.stderr) && !context.global.quiet;
  const progress = await Progress.open(
    io,
    plan.items.map((i) => i.endpoint.name),
    atTerminal,
  );
  // No key or base URL: fails here, before anything is written (the folder is made only then).
  // Retries and 429 waits show on each list's progress line.
  const client = await openClient(context, undefined, (event) => progress.wait(event));
  const origin = { profile: context.settings().profile.name, baseUrl: requireBaseUrl(context) };
  try {
    prepareFolder(plan.dir, io);
    const done = await withFolderLock(plan.dir, io, (held) =>
      exportInto(context, client, plan, progress, origin, startedAt, held),
    );
    tell(context, done, plan.dir, atTerminal);
    return done.manifest.exitCode;
  } finally {
    await client.close();
  }
};

/** What an export says once committed (export --profiles says its own, one line per profile). */
function tell(
  context: ExportContext,
  { manifest, outcomes, clockBehind }: Exported,
  dir: string,
  progress: boolean,
): void {
  const { io } = context;
  // Even under -q, as a gap: cron's mail is where a host's clock set back gets noticed.
  if (clockBehind) io.stderr.write(`warning: ${sanitize(clockBehind)}\n`);
  // On a terminal only, as every note of export's (the manifest's `"changes": null` says it
  // too), and before the report, whose closing line comes last.
  for (const o of outcomes)
    if ('entry' in o && o.unusable && io.stderr.isTTY)
      context.note(
        `${o.item.endpoint.name}: its previous state was not used (${o.unusable}): this export is its baseline`,
      );
  for (const o of outcomes) if ('entry' in o && o.surplus && io.stderr.isTTY) context.note(o.surplus);
  report(context, outcomes, manifest, dir, progress);
}

/**
 * Each gap said, even under --quiet: rows were lost, which is what a cron job exists to prevent.
 * Each failure said once: lists that failed alike on one line with their count and a hint (a
 * revoked key fails all eight), and a hint already given not given again (tenders and agents
 * both need tenders.read). Where this run's errors are JSON lines too (as report.ts decides),
 * one per failed list follows. At a terminal, a closing line.
 */
function report(context: ExportContext, outcomes: Outcome[], manifest: Manifest, dir: string, progress: boolean): void {
  const { io } = context;
  const errorStyle = context.errorStyle();
  for (const outcome of outcomes) {
    if (!('entry' in outcome) || outcome.gap === undefined) continue;
    for (const line of gapLines(outcome.gap)) io.stderr.write(`${sanitize(line)}\n`);
    // A script reading JSON lines sees the gap as it sees a failure: the list, the window, exit 9.
    if (errorStyle.json) io.stderr.write(`${sanitizeJson(JSON.stringify(gapJson(outcome.entry, outcome.gap)))}\n`);
  }
  const failed = outcomes.filter((outcome): outcome is Failed => 'failure' in outcome);
  const said = new Set<string>();
  for (const group of groupFailures(failed.map((outcome) => ({ ...outcome.said, outcome })))) {
    for (const line of groupLines(group)) {
      if (said.has(line)) continue;
      said.add(line);
      io.stderr.write(`${sanitize(line)}\n`);
    }
    if (errorStyle.json) for (const { outcome } of group) io.stderr.write(outcome.jsonLine);
  }
  if (progress) context.note(closingLine(manifest.resources, dir));
}

/** A gap as a JSON line: `{"gap": {"resource", "unseen", "detail", "hint", "exitCode": 9}}`. */
function gapJson(entry: ResourceWritten, { detail, hint }: GapNotice): JsonObject {
  const unseen = entry.unseen ? { after: entry.unseen.after, before: entry.unseen.before } : null;
  return { gap: { resource: entry.resource, unseen, detail, hint, exitCode: EXIT.incomplete } };
}
