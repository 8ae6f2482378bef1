// `cdata export`: every list (or the named ones) to files, for cron. All requests run at once on
// one client (shared keep-alive connections), so the export takes about as long as the slowest
// list. Each file is staged (temp file, fsynced) as its answer arrives; once every request has
// settled, the good ones are renamed into place and manifest.json is written last. An interrupt
// before then leaves every earlier file and the earlier manifest as they were. A resource that
// fails keeps its previous file. Exit 0 only when everything succeeded, else the highest code.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { redactKeys } from '../config/key.js';
import { CliError, exitCodeOf, UsageError, type ExitCode } from '../errors.js';
import { errorJsonLine, httpSuffix, messageOf } from '../report.js';
import { readPrevious, MANIFEST_FILE, type Manifest, type ResourceEntry, type ResourceFailed, type ResourceOk } from '../export/manifest.js';
import { planExport, type ExportItem, type ExportPlan } from '../export/plan.js';
import { Progress } from '../export/progress.js';
import { asRows } from '../output/cells.js';
import { stageFile, syncPath, writeFileAtomic, type StagedFile } from '../output/atomic.js';
import { render } from '../output/render.js';
import { sanitize } from '../output/sanitize.js';
import { cannotWrite } from '../output/sink.js';
import type { ApiClient } from '../client/client.js';
import { openClient, requireBaseUrl } from './api.js';
import type { CommandContext, Handler } from './spec.js';

type Failed = { item: ExportItem; entry: ResourceFailed; jsonLine: string };
type Outcome = { item: ExportItem; staged: StagedFile; entry: ResourceEntry } | Failed;
/** The outcome of a list that could not be exported (see failing). */
type Fail = (item: ExportItem, error: unknown, exitCode?: number) => Failed;

export const exportLists: Handler = async (context) => {
  const { io, options } = context;
  const startedAt = io.now();
  const plan = planExport(context, startedAt);
  // Said on a terminal only: a cron job's successful export prints nothing (the manifest has the limit used).
  if (plan.limit.clampedFrom !== undefined && io.stderr.isTTY) context.note(`--limit ${plan.limit.clampedFrom} is outside 1..200; using ${plan.limit.value}`);
  const client = openClient(context); // no key or base URL: fails here, before anything is written
  const baseUrl = requireBaseUrl(context);
  const previous = readPrevious(plan.dir);
  const errorStyle = context.errorStyle();
  const fail = failing(previous.entries, errorStyle.secrets);
  // Where each file comes from, for its manifest entry.
  const origin = { profile: context.settings().profile.name, baseUrl };
  const progress = new Progress(io, plan.items.map((i) => i.endpoint.name), io.stderr.isTTY === true && options.quiet !== true);

  let outcomes: Outcome[];
  try {
    const one = (item: ExportItem) => exportOne(context, client, plan, item, progress, fail, origin);
    outcomes = previous.keyRefused ? await probeFirst(plan.items, one, fail) : await Promise.all(plan.items.map(one));
  } finally {
    await client.close();
  }

  // Every list is staged; now each goes into place. A rename that fails (a folder in the way)
  // fails that list alone, which keeps its previous file, like a failed request.
  outcomes = outcomes.map((outcome) => {
    if (!('staged' in outcome)) return outcome;
    try {
      outcome.staged.commit();
      return outcome;
    } catch (error) {
      outcome.staged.discard();
      return fail(outcome.item, cannotWrite(outcome.staged.path, error));
    }
  });
  syncPath(plan.dir);

  const failures = outcomes.filter((o): o is Failed => 'jsonLine' in o);
  const exitCode = Math.max(0, ...failures.map((f) => f.entry.error.exitCode));
  const exported = new Set(outcomes.map((o) => o.entry.resource));
  const manifest: Manifest = {
    version: 1,
    exportedAt: new Date(startedAt).toISOString(),
    baseUrl,
    profile: origin.profile,
    format: plan.format,
    limit: plan.limit.value,
    ok: failures.length === 0,
    exitCode,
    resources: outcomes.map((o) => o.entry),
    earlier: [...previous.entries.values()].filter((entry) => !exported.has(entry.resource)),
  };
  const manifestPath = join(plan.dir, MANIFEST_FILE);
  try {
    await writeFileAtomic(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`, io);
  } catch (error) {
    throw cannotWrite(manifestPath, error);
  }

  // One line per failure; where this run's errors are JSON lines too (as report.ts decides), each also as one.
  for (const { entry, jsonLine } of failures) {
    io.stderr.write(`error: ${entry.resource}: ${sanitize(entry.error.message)}\n`);
    if (errorStyle.json) io.stderr.write(jsonLine);
  }
  if (progress.enabled && failures.length === 0) context.note(`exported ${outcomes.length} lists to ${plan.dir} (see ${MANIFEST_FILE})`);
  return exitCode;
};

/**
 * After an export whose key the API refused (exit 3) or whose address it locked out (exit 5), the
 * next one asks for one list first and the rest only if that works: a cron job left running with
 * a revoked key then costs one failed authentication per run, not one per list, and does not
 * lock the company's address out (25 failures in 15 minutes). A first run, or one after a good
 * run, asks for everything at once.
 */
async function probeFirst(items: ExportItem[], one: (item: ExportItem) => Promise<Outcome>, fail: Fail): Promise<Outcome[]> {
  const [first, ...rest] = items;
  if (!first) return [];
  const probe = await one(first);
  const code = probe.entry.status === 'error' ? probe.entry.error.exitCode : 0;
  if (code === 3 || code === 5) {
    const skipped = (item: ExportItem) =>
      fail(item, new UsageError(`not requested: the API refused the first request (${first.endpoint.name}) with exit ${code}`), code);
    return [probe, ...rest.map(skipped)];
  }
  return [probe, ...(await Promise.all(rest.map(one)))];
}

async function exportOne(
  context: CommandContext,
  client: ApiClient,
  plan: ExportPlan,
  item: ExportItem,
  progress: Progress,
  fail: Fail,
  origin: Pick<ResourceOk, 'profile' | 'baseUrl'>,
): Promise<Outcome> {
  const { endpoint } = item;
  const exportedAt = new Date(context.io.now()).toISOString();
  try {
    const query: Record<string, string> = { limit: String(plan.limit.value) };
    const { data } = await client.get(endpoint, query);
    const rows = asRows(data).length;
    const text = await render({
      endpoint,
      data,
      format: plan.format,
      fields: undefined,
      header: context.options.header !== false,
      bom: context.options.bom === true,
      color: 0,
      width: undefined,
    });
    const bytes = Buffer.from(text, 'utf8');
    let staged: StagedFile;
    try {
      staged = await stageFile(item.path, bytes, context.io);
    } catch (error) {
      throw cannotWrite(item.path, error);
    }
    progress.set(endpoint.name, `${rows} rows${rows >= plan.limit.value ? ' (the limit: more may exist)' : ''}  done`);
    return {
      item,
      staged,
      entry: {
        resource: endpoint.name,
        status: 'ok',
        file: item.file,
        rows,
        truncated: rows >= plan.limit.value,
        sha256: createHash('sha256').update(bytes).digest('hex'),
        bytes: bytes.length,
        exportedAt,
        ...origin,
      },
    };
  } catch (error) {
    const outcome = fail(item, error);
    progress.set(endpoint.name, `failed: ${outcome.entry.error.message}`);
    return outcome;
  }
}

/**
 * A list that could not be exported: its error, and the earlier file that stays in its place.
 * What the API said goes into the manifest and onto stderr without the key, should a server
 * echo it back.
 */
function failing(previous: Map<string, ResourceOk>, secrets: readonly string[]): Fail {
  return (item, error, exitCode = exitCodeOf(error)) => {
    const http = error instanceof CliError ? error.http : undefined;
    const correlationId = http?.correlationId ? redactKeys(http.correlationId, secrets) : null;
    const message = redactKeys(`${messageOf(error)}${httpSuffix(error)}`, secrets);
    return {
      item,
      entry: errorEntry(item, { message, exitCode, httpStatus: http?.status ?? null, correlationId }, previous.get(item.endpoint.name)),
      jsonLine: errorJsonLine(error, exitCode as ExitCode, secrets, item.endpoint.name),
    };
  };
}

function errorEntry(item: ExportItem, error: ResourceFailed['error'], kept: ResourceOk | undefined): ResourceFailed {
  return { resource: item.endpoint.name, status: 'error', file: item.file, error, kept: kept ? keptFile(kept) : null };
}

/** An earlier file's entry as a failed list's `kept`: all of it but whose and what it is. */
function keptFile({ resource: _resource, status: _status, ...kept }: ResourceOk): NonNullable<ResourceFailed['kept']> {
  return kept;
}
