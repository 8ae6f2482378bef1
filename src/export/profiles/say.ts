// What an `export --profiles` run says on stderr: the lines of each profile that failed, was
// skipped or lost rows at the cap (a gap is said even with -q, with its list, window and advice,
// as a single export says it), in the order of the profiles; with -o json also its run.json
// entry as a JSON line. At a terminal, a line per profile as it ends and a closing line.
import type { ProfileRun, RunRecord } from './run-record.js';
import { LOCKOUT } from './gate.js';

/**
 * The lines of a profile (none for one that is fine): why it failed or was skipped, then each
 * gap its export found, as `cdata -p PROFILE export` says them, with the profile named.
 */
export function profileLines(run: ProfileRun, gapLines: readonly string[]): string[] {
  const named = gapLines.map((line) => line.replace(/^(\w+): /, `$1: profile ${run.profile}: `));
  const first = failureLine(run);
  return first === undefined ? named : [first, ...named];
}

function failureLine(run: ProfileRun): string | undefined {
  const { profile, status, exitCode, error, failed } = run;
  if (status === 'skipped') return `skipped: profile ${profile}: ${error?.message ?? 'not started'}`;
  if (status !== 'failed') return undefined;
  const what = error?.resource ? `${error.resource}: ${error.message}` : (error?.message ?? 'failed');
  const more = failed.length > 1 ? ` (and ${failed.length - 1} more list${failed.length === 2 ? '' : 's'})` : '';
  return `error: profile ${profile}: exit ${exitCode}: ${what}${more}`;
}

/**
 * Said once after the skipped profiles' lines: `limit` is the run's budget of refusals
 * (refusalBudget), `shards` the N of --shard I/N (their budgets add up, should they share an
 * address: past 24 shards, to the API's lock-out).
 */
export function skippedHint(limit: number, shards = 1): string {
  const together = limit * shards;
  const share = shards > 1 ? ` (a shard's share: the ${shards} shards send ${together} at most together)` : '';
  const lockout = together < LOCKOUT ? 'well short of' : 'which can reach';
  return `After ${limit} refused key${limit === 1 ? '' : 's'} (HTTP 401)${share} cdata sends nothing more to that API host in the run, ${lockout} the API's lock-out (${LOCKOUT} failed attempts from one address in 15 minutes). Fix or remove the refused profiles' keys, then run again.`;
}

/** At a terminal, as each profile ends. */
export function progressLine(run: ProfileRun): string {
  if (run.status === 'skipped') return `${run.profile}: skipped`;
  if (run.status === 'failed') return `${run.profile}: failed (exit ${run.exitCode})`;
  const { changes } = run;
  const changed =
    changes === null
      ? 'a baseline'
      : `${changes.added} added, ${changes.changed} changed, ${changes.removed ?? 'unknown'} removed`;
  return `${run.profile}: ${run.rows} rows, ${changed}${run.status === 'gap' ? ', rows lost at the cap' : ''}`;
}

/** At a terminal, last. */
export function closingLine(record: RunRecord, path: string): string {
  const { counts } = record;
  const done = counts.ok + counts.gap;
  const total = record.profiles.length;
  const rest = [counts.failed && `${counts.failed} failed`, counts.skipped && `${counts.skipped} skipped`]
    .filter(Boolean)
    .join(', ');
  return `exported ${done} of ${total} profile${total === 1 ? '' : 's'} to ${record.dir}${rest ? `; ${rest}` : ''} (see ${path})`;
}

/**
 * At a terminal, when the run is interrupted: how far it went. Each profile's folder holds its
 * last committed export (an interrupted one is left as it was), and no run record is written.
 */
export function interruptedRunLine(finished: number, total: number, record: string, previous: boolean): string {
  const kept = previous ? `${record} still records the last run that finished` : `no ${record} was written`;
  return `interrupted: ${finished} of ${total} profile${total === 1 ? '' : 's'} had ended; the others' folders are as they were, and ${kept}`;
}
