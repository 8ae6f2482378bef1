// Coverage at the API's cap (docs/exports.md). A list ordered newest first returns only its
// newest `limit` rows: when more rows are created between two exports than that, the ones in
// between are never exported. Each list's state keeps the newest row its export saw (state.ts);
// the next export has a gap when it is truncated and that row is not among its rows. The window
// of rows never seen, and how often to export to keep up (from the rows' createdAt), are said on
// stderr; the manifest records both, and the export exits 9 (incomplete).
import type { Endpoint } from '../core/endpoints.js';
import type { JsonObject } from '../core/json-value.js';

/** The newest row an export of a list saw: its key, and its createdAt as the API wrote it (null when it had none). */
export interface NewestRow {
  key: string;
  createdAt: string | null;
}

/** Rows created after `after` and before `before` were never exported (null: unknown, the row had no createdAt). */
export interface Unseen {
  after: string | null;
  before: string | null;
}

/** For the manifest: `gap` null for a baseline or a list not ordered by time; `unseen` set only with a gap. */
export interface Coverage {
  gap: boolean | null;
  unseen: Unseen | null;
}

export const NO_COVERAGE: Coverage = { gap: null, unseen: null };

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;
/** The advised interval leaves a fifth of the window as margin, for a busier day than the one measured. */
const MARGIN = 0.8;

/** Whether section 14 applies: the list's limit keeps its newest rows (by createdAt). */
export const byCreation = (endpoint: Endpoint): boolean => endpoint.firstRows === 'newest';

/**
 * The first row of an answer with a key to find it by (the newest such, for a list ordered newest
 * first): a row without one cannot be looked for next time, and is passed over, as change
 * detection passes it over. Null when no row has a string key.
 */
export function newestRow(rows: readonly JsonObject[], key: string): NewestRow | null {
  const first = rows.find((row) => typeof row[key] === 'string');
  if (first === undefined) return null;
  return { key: first[key] as string, createdAt: createdAtOf(first) };
}

/**
 * This export's coverage of the list, given the newest row of the last export that fetched it
 * (undefined: there was none, this is a baseline; null: that export's list was empty). A gap
 * needs a truncated answer without that row whose oldest row is newer than it: a row deleted
 * since (withdrawn) is no gap while the window still reaches back past its creation time.
 */
export function coverageOf(
  endpoint: Endpoint,
  previous: NewestRow | null | undefined,
  rows: readonly JsonObject[],
  truncated: boolean,
): Coverage {
  if (!byCreation(endpoint) || previous === undefined || endpoint.key === undefined) return NO_COVERAGE;
  if (!truncated) return { gap: false, unseen: null };
  const oldest = rows.length === 0 ? null : createdAtOf(rows[rows.length - 1]!);
  if (previous !== null) {
    const key = endpoint.key;
    if (rows.some((row) => row[key] === previous.key)) return { gap: false, unseen: null };
    const [then, reach] = [timeOf(previous.createdAt), timeOf(oldest)];
    if (then !== undefined && reach !== undefined && reach <= then) return { gap: false, unseen: null };
  }
  return { gap: true, unseen: { after: previous?.createdAt ?? null, before: oldest } };
}

/** What is said of a gap: the window never exported, and the pace to export at. */
export interface GapNotice {
  detail: string;
  hint: string;
}

/** The notice for a list with a gap: its window, then the advice computed from its rows. */
export function gapNotice(
  resource: string,
  unseen: Unseen,
  rows: readonly JsonObject[],
  limit: number,
  limitMax: number,
): GapNotice {
  const window =
    unseen.after !== null && unseen.before !== null
      ? `rows created after ${unseen.after} and before ${unseen.before}`
      : unseen.after !== null
        ? `rows created after ${unseen.after}`
        : unseen.before !== null
          ? `rows created before ${unseen.before}`
          : 'some rows';
  return {
    detail: `${resource}: ${window} were never exported: more were created since the last export than one export holds (${limit} rows)`,
    hint: advice(resource, rows, limit, limitMax),
  };
}

/** A gap's two lines on stderr. */
export function gapLines({ detail, hint }: GapNotice): string[] {
  return [`warning: ${detail}`, `hint: ${hint}`];
}

/**
 * How often to export to keep up, from the pace at which the rows of this answer were created:
 * "obligations: about 110 new rows a day; export at least every 34 h".
 */
export function advice(resource: string, rows: readonly JsonObject[], limit: number, limitMax: number): string {
  const raise = limit < limitMax ? `, or with --limit ${limitMax}` : '';
  const times = rows.map((row) => timeOf(createdAtOf(row))).filter((t): t is number => t !== undefined);
  const span = times.length < 2 ? 0 : Math.max(...times) - Math.min(...times);
  if (span <= 0)
    return `${resource}: its rows carry no creation times to measure its pace by; export it more often${raise}`;
  const perDay = ((times.length - 1) / span) * DAY_MS;
  // How long the list takes to gain the limit's worth of rows; an export must come sooner, by the margin.
  const fills = (limit / perDay) * DAY_MS;
  const every = fills * MARGIN;
  const pace = `${resource}: about ${rowsText(perDay)} new rows a day`;
  if (fills < MINUTE_MS) return `${pace}, more than ${limit} a minute: no schedule keeps up with it${raise}`;
  // cron's finest step is a minute.
  if (every < MINUTE_MS) return `${pace}; export every minute, and even that barely keeps up${raise}`;
  return `${pace}; export at least every ${interval(every)}${raise}`;
}

/** 110, 1,200, 4.5: two significant figures at most, and commas for thousands. */
function rowsText(perDay: number): string {
  if (perDay < 10) return String(Math.round(perDay * 10) / 10);
  const magnitude = 10 ** Math.max(0, Math.floor(Math.log10(perDay)) - 1);
  return (Math.round(perDay / magnitude) * magnitude).toLocaleString('en-US');
}

/** An interval rounded down: minutes under 2 h, hours under 4 days, days beyond. */
function interval(ms: number): string {
  if (ms < 2 * HOUR_MS) return `${Math.floor(ms / MINUTE_MS)} min`;
  if (ms < 4 * DAY_MS) return `${Math.floor(ms / HOUR_MS)} h`;
  return `${Math.floor(ms / DAY_MS)} days`;
}

function createdAtOf(row: JsonObject): string | null {
  return typeof row.createdAt === 'string' ? row.createdAt : null;
}

function timeOf(createdAt: string | null): number | undefined {
  const time = createdAt === null ? Number.NaN : Date.parse(createdAt);
  return Number.isNaN(time) ? undefined : time;
}
