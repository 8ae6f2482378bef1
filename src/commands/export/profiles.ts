// `cdata export --profiles SELECTION | --all-profiles --dir DIR`: each selected profile exported
// to DIR/<profile>/ exactly as `cdata -p PROFILE export --dir DIR/<profile>` would (the same
// plan, lock, generation, manifest and change detection: exportInto), with its own base URL and
// key (a key command runs once). What the run shares: one pool of connections, one budget of
// requests in flight (--concurrency), and the guard against locking an address out
// (src/export/profiles/gate.ts). Profiles go through a fixed number of workers, so what is held
// at once grows with --concurrency, not with the number of profiles. DIR/run.json records the run.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Transport } from '../../client/transport.js';
import { redactKeys } from '../../config/key.js';
import type { LoadedConfig } from '../../config/read.js';
import { DEFAULTS, keyToSend, resolveSettings, type Settings } from '../../config/resolve.js';
import { envValue } from '../../config/env.js';
import { CliError, EXIT, exitCodeOf, UsageError } from '../../core/errors.js';
import { sanitize, sanitizeJson } from '../../core/sanitize.js';
import { clampNote } from '../../core/params.js';
import { type ExportPlan, planExport, prepareFolder } from '../../export/plan.js';
import { formatIgnores } from '../../command-kit/applies.js';
import { Progress } from '../../export/progress.js';
import { exportMark, withFolderLock } from '../../export/folder.js';
import { HostGuard, LOCKED_OUT_HINT, ProfileGate, refusalBudget, Slots } from '../../export/profiles/gate.js';
import { DEFAULT_CONCURRENCY } from '../../export/profiles/options.js';
import { eachAtMost } from '../../export/profiles/pool.js';
import {
  fromManifest,
  recordName,
  runExitCode,
  withRunLock,
  writeRunRecord,
  type ProfileRun,
  type RunRecord,
} from '../../export/profiles/run-record.js';
import { closingLine, interruptedRunLine, profileLines, progressLine, skippedHint } from '../../export/profiles/say.js';
import { selectProfiles } from '../../export/profiles/select.js';
import { messageOf, httpSuffix } from '../../output/error-text.js';
import { cannotWrite } from '../../output/sink.js';
import { canRedraw } from '../../io/index.js';
import { openClient, requireBaseUrl } from '../shared/api.js';
import { exportInto, gapLinesOf, type ExportContext } from './run.js';

/** What every profile's export shares in one run. */
interface Run {
  context: ExportContext;
  config: LoadedConfig;
  dir: string;
  transport: Transport;
  slots: Slots;
  hosts: Map<string, HostGuard>;
  /** The refusals the run may spend on each host (a shard's share). */
  refusals: number;
}

/** What the checks before the run settled, for the run itself. */
interface RunInputs {
  config: LoadedConfig;
  names: readonly string[];
  plan: ExportPlan;
  output: Settings['output'];
  concurrency: number;
  startedAt: number;
}

/** A profile's run.json entry, and the lines its export says of its gaps (none, mostly). */
interface Done {
  entry: ProfileRun;
  gapLines: readonly string[];
  /** This host's clock behind the profile folder's last export (Exported's clockBehind). */
  clockBehind?: string | undefined;
}

export async function exportProfiles(context: ExportContext): Promise<number> {
  const { io, options, global } = context;
  const startedAt = io.now();
  refuseMixed(context);
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
  // Read once, and its permissions warned of once, with the run's own settings (-q, -o).
  const { config, baseUrl } = context.settings();
  // A base URL from --base-url or CDATA_BASE_URL is every profile's: one that cannot be used is
  // the run's configuration error (exit 2), said once, not every profile's failure (exit 10).
  if (baseUrl.source === 'flag' || baseUrl.source === 'env') requireBaseUrl(context);
  const names = selectProfiles(
    Object.keys(config.data.profiles),
    options.allProfiles ? undefined : options.profiles,
    options.shard,
  );
  // Checked once, before any request, as a single export checks them: the lists, the format, the
  // limit and DIR itself (created, writable). Each profile's folder is planned as it starts.
  // Only -o/--json decide an export's format: a profile's stored output is not read for it.
  const output: Settings['output'] =
    global.output !== undefined || global.json ? context.settings().output : { value: undefined, source: 'default' };
  const plan = planExport({ ...options, resources: context.args[0], fields: global.fields, output }, startedAt);
  for (const unused of formatIgnores(plan.format, global)) context.warn(unused);
  prepareFolder(plan.dir, io);
  const single = exportMark(plan.dir);
  if (single !== undefined)
    throw new UsageError(`cannot export --profiles into ${plan.dir}: it holds a single export (${single})`, {
      hint: 'A run writes a folder per profile inside DIR, and its own run.json: choose another --dir, such as a new folder.',
    });
  // One run at a time into DIR (per shard): see withRunLock.
  return withRunLock(plan.dir, options.shard, io, () =>
    runProfiles(context, { config, names, plan, output, concurrency, startedAt }),
  );
}

/** The run itself, holding DIR's run lock. */
async function runProfiles(
  context: ExportContext,
  { config, names, plan, output, concurrency, startedAt }: RunInputs,
): Promise<number> {
  const { io, options, global } = context;
  const clamped = clampNote(plan.limit);
  if (clamped && io.stderr.isTTY) context.note(clamped);
  const { json } = context.errorStyle();
  const terminal = io.stderr.isTTY === true && !global.quiet;

  const run: Run = {
    context,
    config,
    dir: plan.dir,
    transport: await context.transport({
      connections: concurrency,
      connectTimeoutMs: longestTimeoutMs(context, config, names),
    }),
    slots: new Slots(concurrency),
    hosts: new Map(),
    refusals: refusalBudget(options.shard),
  };
  const done: Done[] = new Array(names.length);
  let ended = 0;
  // Ctrl-C at a terminal: how far the run went (each profile's line said as it ended).
  const recordPath = join(plan.dir, recordName(options.shard));
  // The terminal's echo of ^C is taken off the line first, where the cursor can move.
  const stopTelling = terminal
    ? io.onInterrupt(() =>
        io.stderr.write(
          `${canRedraw(io, io.stderr) ? '\r\u001b[2K' : '\n'}${sanitize(interruptedRunLine(ended, names.length, recordPath, existsSync(recordPath)))}\n`,
        ),
      )
    : () => undefined;
  try {
    // As many profiles at once as requests may be in flight: each keeps at least one request
    // waiting for a slot most of the time, and holds nothing of its lists once they are written.
    await eachAtMost(names, concurrency, async (name, index) => {
      const finished = (done[index] = await exportProfile(run, name, output));
      ended++;
      if (terminal) context.note(progressLine(finished.entry));
    });
  } finally {
    stopTelling();
    await run.transport.close();
  }
  const profiles = done.map((d) => d.entry);

  const exitCode = runExitCode(profiles);
  const counts = { ok: 0, gap: 0, failed: 0, skipped: 0 };
  for (const p of profiles) counts[p.status]++;
  const record: RunRecord = {
    version: 1,
    startedAt: new Date(startedAt).toISOString(),
    durationMs: io.now() - startedAt,
    dir: plan.dir,
    selection: options.allProfiles ? null : (options.profiles ?? null),
    shard: options.shard ?? null,
    concurrency,
    ok: exitCode === 0,
    exitCode,
    counts,
    profiles,
  };
  // One host, one clock: said once, for the first profile it showed in, even under -q (as a
  // single export says it: cron's mail is where a clock set back gets noticed).
  const behind = done.filter((d) => d.clockBehind !== undefined);
  if (behind.length > 0) {
    const others = behind.length - 1;
    const more = others > 0 ? ` (and in ${others} more profile folder${others === 1 ? '' : 's'})` : '';
    io.stderr.write(`warning: ${sanitize(`profile ${behind[0]!.entry.profile}: ${behind[0]!.clockBehind}${more}`)}\n`);
  }
  // Each profile's lines first: they stay true, and needed, if run.json cannot be written.
  for (const { entry, gapLines } of done) {
    const lines = profileLines(entry, gapLines);
    if (lines.length === 0) continue;
    for (const line of lines) io.stderr.write(`${sanitize(line)}\n`);
    if (json) io.stderr.write(`${sanitizeJson(JSON.stringify(entry))}\n`);
  }
  if (counts.skipped > 0) {
    // Why hosts closed: their refusals, or a lock-out of the address (each said once).
    const closed = [...run.hosts.values()].filter((host) => host.closed);
    if (closed.some((host) => !host.lockedOut))
      io.stderr.write(`hint: ${skippedHint(run.refusals, options.shard?.count)}\n`);
    if (closed.some((host) => host.lockedOut)) io.stderr.write(`hint: ${LOCKED_OUT_HINT}\n`);
  }
  let path: string;
  try {
    path = await writeRunRecord(plan.dir, options.shard, record, io);
  } catch (error) {
    // The profiles' exports are committed, each in its folder: a failed profile's 10 still
    // says so; otherwise the record's own failure is the run's (2, as any file cdata cannot write).
    const failure = cannotWrite(recordPath, error);
    if (exitCode !== EXIT.profilesFailed) throw failure;
    throw new CliError(EXIT.profilesFailed, failure.message, { cause: error, hint: failure.hint });
  }
  if (terminal) context.note(closingLine(record, path));
  return exitCode;
}

/** What cannot be meant together with --profiles, refused before anything runs. */
function refuseMixed({ global, io }: ExportContext): void {
  if (global.profile !== undefined) {
    throw new UsageError(
      '-p/--profile chooses one profile, and --profiles or --all-profiles several: use one of them',
      {
        hint: 'One profile: cdata -p NAME export --dir DIR. Several: cdata export --profiles NAME,NAME --dir DIR.',
      },
    );
  }
  // The environment's key wins over a profile's (section 2): here it would go out as every profile's.
  if (envValue(io.env, 'CDATA_API_KEY') !== undefined) {
    throw new UsageError(
      "CDATA_API_KEY is set, and would be sent as the key of every profile: export --profiles uses each profile's own key",
      {
        hint: 'Unset CDATA_API_KEY for this command (env -u CDATA_API_KEY cdata export ...). A key kept in a secret store reaches a profile through its key command: cdata auth login --profile NAME --key-command CMD.',
      },
    );
  }
}

/** One profile's export, whatever happens to it: its entry in run.json, and its gaps' lines. */
async function exportProfile(run: Run, name: string, output: Settings['output']): Promise<Done> {
  const { context } = run;
  const { io } = context;
  const started = io.now();
  const secrets = [...context.errorStyle().secrets];
  let baseUrl: string | null = null;
  // In the order of fromManifest's entries (and docs/many-profiles.md), so every line of run.json reads alike.
  const entry = ({
    status,
    exitCode,
    rows,
    error,
  }: Pick<ProfileRun, 'status' | 'exitCode' | 'rows' | 'error'>): Done => ({
    entry: {
      profile: name,
      status,
      exitCode,
      dir: name,
      baseUrl,
      rows,
      changes: null,
      failed: [],
      error,
      durationMs: io.now() - started,
    },
    gapLines: [],
  });
  try {
    const settings = resolveSettings({ ...context.global, profile: name }, io, context.sandbox, run.config);
    const mine = profileContext(context, settings, secrets);
    baseUrl = requireBaseUrl(mine);
    const host = hostOf(run, baseUrl);
    // Taken before anything is awaited, so in the run's order (eachAtMost starts profiles in it).
    const turn = host.takeTurn();
    try {
      if (host.closed) return entry({ status: 'skipped', exitCode: null, rows: null, error: skipped(host) });
      const gate = new ProfileGate(run.slots, host, settings.maxWaitSeconds);
      // The key (a key command runs here, once) before the host is asked: neither costs a request.
      const client = await openClient(mine, undefined, () => undefined, { transport: run.transport, gate });
      try {
        if (!(await host.admit(turn)))
          return entry({ status: 'skipped', exitCode: null, rows: null, error: skipped(host) });
        const plan = planExport(
          { ...context.options, dir: join(run.dir, name), resources: context.args[0], fields: undefined, output },
          started,
        );
        prepareFolder(plan.dir, io);
        const progress = new Progress(io, [], undefined);
        const origin = { profile: name, baseUrl };
        const { manifest, outcomes, clockBehind } = await withFolderLock(plan.dir, io, (held) =>
          exportInto(mine, client, plan, progress, origin, started, held, true),
        );
        return {
          entry: fromManifest(manifest, name, io.now() - started),
          gapLines: gapLinesOf(outcomes),
          clockBehind,
        };
      } finally {
        gate.finish();
        await client.close();
      }
    } finally {
      // A profile that ended before asking (its key command failed) lets the next one go.
      host.pass(turn);
    }
  } catch (error) {
    const http = error instanceof CliError ? error.http : undefined;
    return entry({
      status: 'failed',
      exitCode: exitCodeOf(error),
      rows: 0,
      error: {
        resource: null,
        message: redactKeys(`${messageOf(error)}${httpSuffix(error)}`, secrets),
        httpStatus: http?.status ?? null,
        correlationId: http?.correlationId ? redactKeys(http.correlationId, secrets) : null,
      },
    });
  }
}

function hostOf(run: Run, baseUrl: string): HostGuard {
  const { origin } = new URL(baseUrl);
  let host = run.hosts.get(origin);
  if (!host) run.hosts.set(origin, (host = new HostGuard(origin, run.refusals)));
  return host;
}

function skipped(host: HostGuard): ProfileRun['error'] {
  return {
    resource: null,
    message: `not started: ${host.why}`,
    httpStatus: null,
    correlationId: null,
  };
}

/**
 * The longest --timeout among the run's profiles, for the connections they share: no profile's
 * connection is cut before its own deadline. One whose stored timeout is bad fails when it starts.
 */
function longestTimeoutMs(context: ExportContext, config: LoadedConfig, names: readonly string[]): number {
  const seconds = names.map((name) => {
    try {
      return resolveSettings({ ...context.global, profile: name }, context.io, context.sandbox, config).timeoutSeconds;
    } catch {
      return 0;
    }
  });
  return (Math.max(0, ...seconds) || DEFAULTS.timeoutSeconds) * 1000;
}

/**
 * The run's context as one profile sees it: its settings, its key (a key command run at most
 * once, its output a secret of this profile's messages), and no words of its own on stderr (the
 * run says one line per profile).
 */
function profileContext(context: ExportContext, settings: Settings, secrets: string[]): ExportContext {
  let key: Promise<string | undefined> | undefined;
  const json = context.errorStyle().json;
  return {
    ...context,
    settings: () => settings,
    apiKey: () => (key ??= keyOf(settings, context, secrets)),
    note: () => undefined,
    warn: () => undefined,
    errorStyle: () => ({ json, secrets }),
  };
}

async function keyOf(settings: Settings, { io }: ExportContext, secrets: string[]): Promise<string | undefined> {
  const value = await keyToSend(settings, io);
  if (value !== undefined) secrets.push(value);
  return value;
}
