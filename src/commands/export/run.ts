// One profile's export into its folder, whose lock is held: each list asked for, written into a
// new generation, compared with its state, and committed with the manifest in one rename.
// `cdata export` runs it once (index.ts); export --profiles once per profile (profiles.ts).
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { redactKeys } from '../../config/key.js';
import { CliError, EXIT, exitCodeOf, UsageError, type ExitCode } from '../../core/errors.js';
import { errorJsonLine, httpSuffix, messageOf } from '../../output/error-text.js';
import { account, type Failure } from '../../export/account.js';
import { CHANGES_FILE, writeChanges, writeChangesPart } from '../../export/changes-file.js';
import { type GapNotice, gapLines, gapNotice } from '../../export/coverage.js';
import { detectChanges, type Detected } from '../../export/detect.js';
import { Turns, type Turn } from '../../export/turn.js';
import type { JsonValue } from '../../core/json-value.js';
import { collectGarbage } from '../../io/collect.js';
import type { Content } from '../../io/atomic.js';
import { stateChunks, stateFile } from '../../export/state.js';
import { openFolder } from '../../export/folder.js';
import type { Generation } from '../../export/generation.js';
import { DATA } from '../../export/layout.js';
import {
  MANIFEST_FILE,
  refusedKey,
  type Manifest,
  type Previous,
  type ResourceWritten,
} from '../../export/manifest.js';
import type { ExportItem, ExportPlan } from '../../export/plan.js';
import { DONE, type Progress } from '../../export/progress.js';
import { interruptedLine, type SaidFailure } from '../../export/summary.js';
import { asRows } from '../../output/cells.js';
import { render } from '../../output/render.js';
import { sanitize } from '../../core/sanitize.js';
import { cannotWrite } from '../../output/sink.js';
import type { ApiClient } from '../../client/client.js';
import { surplusNote } from '../shared/api.js';
import { LIMIT_MAX } from '../../core/params.js';
import { FILE_RENDERING } from '../../output/print.js';
import type { CommandContext } from '../../command-kit/command.js';
import type { EXPORT_ARGS, EXPORT_OPTIONS } from './command.js';

export type ExportContext = CommandContext<typeof EXPORT_OPTIONS, typeof EXPORT_ARGS>;

export type Failed = { item: ExportItem; failure: Failure; jsonLine: string; said: SaidFailure };
/**
 * A list written: its manifest entry, its changes, why its previous state was passed over (if it
 * was), what a server that ignored the limit sent (if it did), and the lines that say its gap (if
 * it has one).
 */
export type Outcome =
  | {
      item: ExportItem;
      entry: ResourceWritten;
      changes: ChangesPart;
      unusable: string | undefined;
      surplus: string | undefined;
      gap: GapNotice | undefined;
    }
  | Failed;
/** The outcome of a list that could not be exported (see failing). */
export type Fail = (item: ExportItem, error: unknown, exitCode?: ExitCode) => Failed;
/** A list's changes, in its part of changes.ndjson (changes-file.ts). */
type ChangesPart = Awaited<ReturnType<typeof writeChangesPart>>;
/** Where this export's files come from, for the manifest and each file's entry. */
export type Origin = { profile: string; baseUrl: string };

/** An export committed: its manifest, and what each list came to. */
export interface Exported {
  manifest: Manifest;
  outcomes: Outcome[];
  /** Said when this host's clock reads earlier than the last export into the folder. */
  clockBehind?: string | undefined;
}

/**
 * This host's clock set back behind the last export into the folder: stamps (a --stamp file of an
 * earlier run replaced) and change times go backwards.
 */
function clockBehind(startedAt: number, before: string | undefined): string | undefined {
  if (before === undefined || !(startedAt < Date.parse(before))) return undefined;
  return `this host's clock reads ${new Date(startedAt).toISOString()}, before the last export into this folder (${before}): file stamps and change times go backwards; check the clock`;
}

/** What the lists of an export say of their gaps, in order (none, mostly). */
export function gapLinesOf(outcomes: readonly Outcome[]): string[] {
  return outcomes.flatMap((outcome) => ('entry' in outcome && outcome.gap ? gapLines(outcome.gap) : []));
}

/** The export of `plan` into its folder, whose lock is held; export --profiles runs it for each profile. */
export async function exportInto(
  context: ExportContext,
  client: ApiClient,
  plan: ExportPlan,
  progress: Progress,
  origin: Origin,
  startedAt: number,
  held: () => boolean,
  /** Ask for the lists one at a time until one is answered (export --profiles: see probeHost). */
  oneFirst = false,
): Promise<Exported> {
  const { io } = context;
  const { previous, generation } = openFolder(
    plan.dir,
    plan.items.map((item) => item.file),
    io,
    held,
  );
  const errorStyle = context.errorStyle();
  const fail = failing(errorStyle.secrets);
  progress.start();
  // Ctrl-C at a terminal: the progress lines give way to what the folder still holds (the
  // generation is removed by its own cleanup; nothing of the folder changes before the commit).
  const stopTelling = progress.atTerminal
    ? io.onInterrupt(() => {
        progress.clear();
        io.stderr.write(`${sanitize(interruptedLine(plan.dir, previous))}\n`);
      })
    : () => undefined;
  let outcomes: Outcome[];
  try {
    const turns = new Turns();
    const one = async (item: ExportItem) => {
      const turn = turns.claim();
      try {
        return await exportOne(context, client, plan, item, generation, progress, fail, origin, turn);
      } finally {
        // What a large list left is collected before the next one's turn (and outside its own
        // frame, which holds it until it returns): peak memory is then one large list's, not
        // that and the garbage of the earlier ones (docs/limits.md).
        if (turn.done()) collectGarbage();
      }
    };
    outcomes = previous.keyRefused
      ? await probeFirst(plan.items, one, fail)
      : oneFirst
        ? await probeHost(plan.items, one, fail)
        : await Promise.all(plan.items.map(one));
    progress.end();
    outcomes = outcomes.map((outcome) => show(outcome, generation, fail));
    const manifest = await commit(generation, plan, outcomes, previous, origin, startedAt);
    stopTelling();
    return { manifest, outcomes, clockBehind: clockBehind(startedAt, previous.exportedAt) };
  } catch (error) {
    generation.abandon();
    throw error;
  } finally {
    progress.stop();
    stopTelling();
  }
}

/**
 * A written file gets its link in the folder ahead of the commit. Something else under its
 * name (a folder, a file of someone's own) fails that list alone, as a failed request does.
 */
function show(outcome: Outcome, generation: Generation, fail: Fail): Outcome {
  if (!('entry' in outcome)) return outcome;
  try {
    generation.place(outcome.entry.file);
    return outcome;
  } catch (error) {
    generation.drop(outcome.entry.file);
    generation.drop(stateFile(outcome.entry.resource));
    if (outcome.changes.part !== undefined) generation.drop(outcome.changes.part);
    return fail(outcome.item, cannotWrite(outcome.item.path, error));
  }
}

/** Earlier files carried along, the manifest written, and the generation committed. */
async function commit(
  generation: Generation,
  plan: ExportPlan,
  outcomes: Outcome[],
  previous: Previous,
  origin: Origin,
  startedAt: number,
): Promise<Manifest> {
  let carried: string[];
  try {
    carried = generation.carryRest(new Set([MANIFEST_FILE, CHANGES_FILE]));
  } catch (error) {
    throw cannotWrite(generation.path, error);
  }
  const changesFile = await writeChanges(
    generation,
    plan.dir,
    outcomes.flatMap((o) => ('entry' in o ? [o.changes] : [])),
  );
  const contents = account(
    outcomes.map((o) => ('entry' in o ? o.entry : o.failure)),
    carried,
    previous,
    generation,
  );
  // A failed list's code wins over a gap's: the gap is said either way.
  const failed = Math.max(0, ...contents.resources.map((r) => (r.status === 'error' ? r.error.exitCode : 0)));
  const exitCode = failed > 0 ? failed : contents.resources.some((r) => r.gap === true) ? EXIT.incomplete : EXIT.ok;
  const manifest: Manifest = {
    version: 1,
    exportedAt: new Date(startedAt).toISOString(),
    baseUrl: origin.baseUrl,
    profile: origin.profile,
    format: plan.format,
    limit: plan.limit.value,
    ok: exitCode === 0,
    exitCode,
    changesFile,
    ...contents,
  };
  const manifestPath = join(plan.dir, MANIFEST_FILE);
  try {
    await generation.write(MANIFEST_FILE, `${JSON.stringify(manifest, null, 2)}\n`);
    generation.place(MANIFEST_FILE);
  } catch (error) {
    throw cannotWrite(manifestPath, error);
  }
  try {
    generation.commit();
  } catch (error) {
    throw cannotWrite(join(plan.dir, DATA), error);
  }
  return manifest;
}

/**
 * After an export whose key the API refused (exit 3) or whose address it locked out (exit 5), the
 * next one asks for one list first, and for the rest only if that works: a cron job left running
 * with a revoked key then costs one failed authentication per run, not one per list, and does not
 * lock the company's address out (25 failures in 15 minutes). A server error or a lost connection
 * (exit 6) tells nothing of the key: the rest are not asked either, and are recorded as refused
 * (exit 3), so that the next run, too, asks one list first. A first run, or one after a good run,
 * asks for everything at once.
 */
async function probeFirst(
  items: ExportItem[],
  one: (item: ExportItem) => Promise<Outcome>,
  fail: Fail,
): Promise<Outcome[]> {
  const [first, ...rest] = items;
  if (!first) return [];
  const probe = await one(first);
  const code = 'failure' in probe ? probe.failure.error.exitCode : EXIT.ok;
  if (!refusedKey(code) && code !== EXIT.unavailable) return [probe, ...(await Promise.all(rest.map(one)))];
  const why =
    code === EXIT.unavailable
      ? `the key was refused in the last export, and the first request (${first.endpoint.name}) could not tell whether it still is (exit 6)`
      : `the API refused the first request (${first.endpoint.name}) with exit ${code}`;
  const skipped = (item: ExportItem) =>
    fail(
      item,
      new UsageError(`not requested: ${why}`, {
        hint: 'After an export whose key was refused, cdata asks for one list first: a cron job with a revoked key then costs one failed authentication per run, not one per list.',
      }),
      code === EXIT.unavailable ? EXIT.auth : code,
    );
  return [probe, ...rest.map(skipped)];
}

/** The lists a profile asks for, one after another, before it decides its host is not answering. */
const HOST_PROBES = 2;

/**
 * Each profile of export --profiles asks for its lists one at a time until its key is known good
 * (profiles/gate.ts), and so for one list first. When that list gets no answer at all (exit 6
 * with no HTTP status: a timeout, a refused or reset connection, after its retries), a second
 * tells whether the host answers at all (one endpoint may fail alone); when neither does, the
 * profile's other lists are not asked for, and are recorded as unavailable (exit 6): a host that
 * is down costs two lists' wait a profile, not every list's, one after another. A 5xx is an
 * answer; a refused key is the gate's to stop.
 */
async function probeHost(
  items: ExportItem[],
  one: (item: ExportItem) => Promise<Outcome>,
  fail: Fail,
): Promise<Outcome[]> {
  const unanswered = (outcome: Outcome) =>
    'failure' in outcome &&
    outcome.failure.error.exitCode === EXIT.unavailable &&
    outcome.failure.error.httpStatus === null;
  const asked: Outcome[] = [];
  for (const item of items.slice(0, HOST_PROBES)) {
    const outcome = await one(item);
    asked.push(outcome);
    if (!unanswered(outcome)) return [...asked, ...(await Promise.all(items.slice(asked.length).map(one)))];
  }
  const names = items.slice(0, asked.length).map((item) => item.endpoint.name);
  const skipped = (item: ExportItem) =>
    fail(
      item,
      new UsageError(`not requested: the first requests (${names.join(', ')}) got no answer (exit 6)`, {
        hint: "export --profiles asks for a profile's lists one at a time until one is answered: when none of the first two is, the others would only wait as long.",
      }),
      EXIT.unavailable,
    );
  return [...asked, ...items.slice(asked.length).map(skipped)];
}

async function exportOne(
  context: ExportContext,
  client: ApiClient,
  plan: ExportPlan,
  item: ExportItem,
  generation: Generation,
  progress: Progress,
  fail: Fail,
  origin: Origin,
  turn: Turn,
): Promise<Outcome> {
  const { endpoint } = item;
  const exportedAt = new Date(context.io.now()).toISOString();
  try {
    // The limit goes to the lists that take one; the others (agents, workspaces) return all their rows, 200 at most.
    const takesLimit = endpoint.params.some((param) => param.kind === 'limit');
    const limit = takesLimit ? plan.limit.value : LIMIT_MAX;
    const query: Record<string, string> = takesLimit ? { limit: String(limit) } : {};
    // A server that ignores the limit: its first `limit` rows are the list (the client cut it).
    const { data, received } = await client.get(endpoint, query, turn.large);
    const surplus = received === undefined ? undefined : surplusNote(endpoint, received, limit);
    const rows = asRows(data).length;
    const truncated = rows >= limit;
    // The file, the state and the changes one after the other, each made just before it is
    // written and let go after: one large answer and one thing made of it in memory at a time.
    const written: string[] = [];
    const write = async (name: string, content: Content) => {
      written.push(name);
      try {
        await generation.write(name, content);
      } catch (error) {
        throw cannotWrite(item.path, error);
      }
    };
    let file: { sha256: string; bytes: number };
    let detected: Detected;
    let changes: ChangesPart;
    try {
      // The file and the state at once (each fsynced: in turn they would cost an export a sync's wait per list).
      const [made, state] = await Promise.allSettled([
        writeFile(context, plan, item, data, write),
        write(stateFile(endpoint.name), stateChunks(endpoint.name, endpoint.key!, exportedAt, data)),
      ]);
      if (made.status === 'rejected') throw made.reason;
      if (state.status === 'rejected') throw state.reason;
      file = made.value;
      // A large answer's file text and the buffers it was written from are collected before its
      // previous state is read, and that state's text before its changes are written: otherwise
      // each step's garbage is still held at the next one's peak (the diffing export: ~240-265
      // -> ~170-205 MiB, docs/limits.md).
      if (turn.taken()) collectGarbage();
      detected = detectChanges(generation, endpoint, data, truncated);
      if (turn.taken() && detected.counts !== null) collectGarbage();
      changes = await writeChangesPart(write, endpoint.name, detected.changes);
    } catch (error) {
      // A list's file, its state and its changes enter the generation together or not at all
      // (a full disk): it keeps its previous file and state, as a list that failed does.
      for (const name of written) generation.drop(name);
      throw error;
    }
    const { coverage } = detected;
    progress.set(
      endpoint.name,
      `${rows} rows${received !== undefined ? ` (of ${received} sent)` : truncated ? ' (the limit: more may exist)' : ''}${coverage.gap ? ' (rows were missed)' : ''}${DONE}`,
    );
    return {
      item,
      changes,
      unusable: detected.unusable,
      surplus,
      gap: coverage.unseen ? gapNotice(endpoint.name, coverage.unseen, asRows(data), limit, LIMIT_MAX) : undefined,
      entry: {
        resource: endpoint.name,
        status: 'ok',
        file: item.file,
        rows,
        truncated,
        changes: detected.counts,
        ...coverage,
        ...file,
        exportedAt,
        ...origin,
      },
    };
  } catch (error) {
    const outcome = fail(item, error);
    // The reason is said once, below the progress, when the export ends.
    const { httpStatus, exitCode } = outcome.failure.error;
    progress.set(endpoint.name, `failed (${httpStatus === null ? `exit ${exitCode}` : `HTTP ${httpStatus}`})`);
    return outcome;
  }
}

/** The list's file, rendered and written (its text let go on return); its SHA-256 and size. */
async function writeFile(
  context: ExportContext,
  plan: ExportPlan,
  item: ExportItem,
  data: JsonValue,
  write: (name: string, content: Content) => Promise<void>,
) {
  const text = await render({
    view: item.endpoint,
    data,
    format: plan.format,
    fields: undefined,
    header: context.global.header,
    bom: context.global.bom,
    ...FILE_RENDERING,
  });
  await write(item.file, utf8Chunks(text));
  return { sha256: createHash('sha256').update(text, 'utf8').digest('hex'), bytes: Buffer.byteLength(text, 'utf8') };
}

/** A text as UTF-8 a megabyte at a time (never splitting a surrogate pair): no second copy of it whole. */
function* utf8Chunks(text: string, size = 1024 * 1024): Generator<Buffer> {
  for (let start = 0; start < text.length; ) {
    let end = Math.min(text.length, start + size);
    const code = text.charCodeAt(end - 1);
    if (end < text.length && code >= 0xd800 && code <= 0xdbff) end--;
    yield Buffer.from(text.slice(start, end), 'utf8');
    start = end;
  }
}

/**
 * A list that could not be exported, and its error. What the API said goes into the manifest
 * and onto stderr without the key, should a server echo it back.
 */
export function failing(secrets: readonly string[]): Fail {
  return (item, error, exitCode = exitCodeOf(error)) => {
    const http = error instanceof CliError ? error.http : undefined;
    const correlationId = http?.correlationId ? redactKeys(http.correlationId, secrets) : null;
    const message = redactKeys(`${messageOf(error)}${httpSuffix(error)}`, secrets);
    const hint = error instanceof CliError && error.hint !== undefined ? redactKeys(error.hint, secrets) : undefined;
    return {
      item,
      failure: {
        resource: item.endpoint.name,
        file: item.file,
        error: { message, exitCode, httpStatus: http?.status ?? null, correlationId },
      },
      jsonLine: errorJsonLine(error, exitCode, secrets, item.endpoint.name),
      said: {
        resource: item.endpoint.name,
        message: redactKeys(messageOf(error), secrets),
        status: http ? ` (HTTP ${http.status})` : '',
        full: message,
        hint,
      },
    };
  };
}
