// The demo data moved forward by days (`cdata sandbox --day N`, `startSandbox({ day })`), so that
// change detection can be tried and tested: from each day to the next, some rows are added, some
// change and some are removed, the same way every time (each day's steps come from a generator
// seeded with its number). Day 0 is data.ts's data untouched. A day is a step of the data, not of
// the clock: dates still follow the sandbox's clock, so two sandboxes on the same clock differ
// only by what the days between them did. docs/sandbox.md lists what each day does.
import { isJsonNumber, JsonNumber } from '../core/json.js';
import type { JsonObject } from '../core/json-value.js';
import {
  COMPANY_STEMS,
  COMPANY_SUFFIXES,
  COMPANY_TRADES,
  FIRST_NAMES,
  OBLIGATIONS,
  ROLES,
  SURNAMES,
  TENDER_WORKS,
  TOWNS,
} from './vocabulary.js';
import { MAX_DAY } from './max-day.js';
import {
  DAY_MS,
  demoData,
  generator,
  isoDate,
  mailboxOf,
  money,
  sortTenders,
  tenderReasons,
  tierOf,
  type DemoData,
} from './data.js';

const DAY_SEED = 0x5eed_0000;
/** New tenders' ocids, past every day-0 ocid (140000 + 63 * 37 + 36 at most). */
const FIRST_NEW_OCID = 142_400;
/** The window of an obligations export: the API's cap, which the data outgrows so truncation shows. */
const WINDOW = 200;

type Generator = ReturnType<typeof generator>;
type Lists = DemoData['rows'];
/** Lists that gain rows, and at most how many a day: new rows' creation times are spread by it. */
const ADDED_PER_DAY = { obligations: 2, companies: 1, persons: 1, documents: 1, sites: 1 } as const;
type Growing = keyof typeof ADDED_PER_DAY;
/**
 * The day a batch of obligations is imported at once: more than an export holds (the API's cap),
 * so an export of the day before and one of this day show a gap (docs/exports.md, "When rows
 * slip past the cap").
 */
export const SURGE_DAY = 10;
/** How many obligations that day's batch adds, beside the day's usual two. */
export const SURGE_ROWS = 250;

/** Days asked for in this process, and those asked for again, kept, by day and number. */
const asked = new Set<string>();
const kept = new Map<string, DemoData>();

/**
 * The data of `day` as of `now`: the day's demo data moved forward. A process that asks for the
 * same day again (a test suite starts hundreds of sandboxes, at ~10 ms each to make) keeps it and
 * is given a copy each time, which its sandbox may change; the first ask, all a `cdata --sandbox`
 * run makes, is made fresh, with nothing kept or copied.
 */
export function sandboxData(now: number, day: number): DemoData {
  const key = `${Math.floor(now / DAY_MS)}:${day}`;
  if (!asked.has(key)) {
    asked.add(key);
    return advance(demoData(now), day);
  }
  let data = kept.get(key);
  if (data === undefined) {
    data = advance(demoData(now), day);
    if (kept.size >= 16) kept.clear();
    kept.set(key, data);
  }
  return { today: data.today, rows: copyOf(data.rows) };
}

/** A copy of JSON data, to any depth; exact numbers, which nothing changes, are shared. */
function copyOf<T>(value: T): T {
  if (Array.isArray(value)) return value.map(copyOf) as T;
  if (typeof value !== 'object' || value === null || isJsonNumber(value)) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) copy[key] = copyOf(item);
  return copy as T;
}

/** `data` (day 0) moved forward to `day`, in place. */
export function advance(data: DemoData, day: number): DemoData {
  if (!Number.isInteger(day) || day < 0 || day > MAX_DAY)
    throw new RangeError(`day must be a whole number from 0 to ${MAX_DAY} (got ${day})`);
  const created = creationTimes(data);
  for (let k = 1; k <= day; k++) step(data.rows, k, data.today, created);
  return data;
}

/** What day `k` does: each list's changes, in a fixed order. */
function step(lists: Lists, k: number, today: number, created: (list: Growing, j: number) => string): void {
  const g = generator(DAY_SEED + k);
  const at = (list: Growing) => (j: number) => created(list, (k - 1) * ADDED_PER_DAY[list] + surged(list, k) + j);

  // Tenders: one decided, one re-scored (its tier may move), the one that closed longest ago
  // withdrawn, and two new: one RECOMMENDED, one not.
  const undecided = lists.tenders.filter((t) => t.decision === null);
  if (undecided.length > 0) g.pick(undecided).decision = g.pick(['BID', 'NO_BID', 'CLARIFY_FIRST']);
  rescore(g, g.pick(lists.tenders));
  remove(lists.tenders, earliestClosing(lists.tenders));
  lists.tenders.push(
    newTender(g, today, FIRST_NEW_OCID + (k - 1) * 2, [75, 97]),
    newTender(g, today, FIRST_NEW_OCID + (k - 1) * 2 + 1, [40, 74]),
  );
  sortTenders(lists.tenders);

  // Obligations: two of the newest 200 done, one of them withdrawn, two new (newest first), one a
  // payment of a round amount.
  const done: JsonObject[] = [];
  for (let n = 0; n < 2; n++) {
    const open = lists.obligations.slice(0, WINDOW).filter((o) => o.status === 'OPEN');
    if (open.length > 0) done.push(Object.assign(g.pick(open), { status: 'DONE' }));
  }
  // Not one just done (its change would not show): picked again, which leaves other days' picks as they were.
  let withdrawn = g.pick(lists.obligations.slice(0, WINDOW));
  while (done.includes(withdrawn)) withdrawn = g.pick(lists.obligations.slice(0, WINDOW));
  remove(lists.obligations, withdrawn);
  for (let j = 0; j < ADDED_PER_DAY.obligations; j++)
    lists.obligations.unshift(newObligation(g, today, at('obligations')(j), lists.companies, j === 0));

  // Companies: one's notes rewritten; a new one every other day.
  const company = g.pick(lists.companies);
  company.notes = nextOf(COMPANY_NOTES, company.notes);
  if (k % 2 === 0) lists.companies.unshift(newCompany(g, at('companies')(0)));

  // People: one changes role; someone new every third day.
  const person = g.pick(lists.persons);
  person.roleTitle = nextOf(ROLES, person.roleTitle);
  if (k % 3 === 0) lists.persons.unshift(newPerson(g, at('persons')(0), lists.companies));

  // Sites: one moves on (planned to active, active to closed); a new one planned every other day,
  // so there is always one to move.
  const moving = lists.sites.filter((s) => s.status !== 'CLOSED');
  if (moving.length > 0) {
    const site = g.pick(moving);
    site.status = site.status === 'PLANNED' ? 'ACTIVE' : 'CLOSED';
  }
  if (k % 2 === 0) lists.sites.unshift(newSite(g, at('sites')(0), lists.companies));

  // Documents: one withdrawn, a new invoice.
  remove(lists.documents, g.pick(lists.documents));
  lists.documents.unshift(newDocument(g, k, at('documents')(0), lists.companies));

  // The batch, last, so that every other step of its day is as on any day; newest of all.
  if (k === SURGE_DAY) {
    for (let j = 0; j < SURGE_ROWS; j++)
      lists.obligations.unshift(
        newObligation(g, today, at('obligations')(ADDED_PER_DAY.obligations + j), lists.companies, false),
      );
  }
}

/** Rows `list` gained before day `k` beyond its usual ones a day: the batch, once its day is past. */
function surged(list: Growing, k: number): number {
  return list === 'obligations' && k > SURGE_DAY ? SURGE_ROWS : 0;
}

/**
 * When the j-th row ever added to a list was created: after the list's newest row of day 0 and
 * before the sandbox's today, spread so that every later row is newer (lists stay newest first)
 * and a row's time depends only on its day and place, never on how far the data was moved.
 */
function creationTimes(data: DemoData): (list: Growing, j: number) => string {
  // Taken from day 0, before any row is added.
  const newest = Object.fromEntries(
    Object.keys(ADDED_PER_DAY).map((list) => [list, Date.parse(data.rows[list as Growing][0]!.createdAt as string)]),
  );
  return (list, j) => {
    const slot = (data.today - newest[list]!) / (MAX_DAY * ADDED_PER_DAY[list] + surged(list, MAX_DAY + 1) + 1);
    return new Date(newest[list]! + Math.floor((j + 1) * slot)).toISOString();
  };
}

function rescore(g: Generator, tender: JsonObject): void {
  const score = Math.min(97, Math.max(22, Number(tender.score) + g.pick([-1, 1]) * g.int(3, 12)));
  const tier = tierOf(score);
  if (tier !== tender.tier) tender.reasons = tenderReasons(tier, g.int(3, 8), townIn(tender.province), g.pick);
  tender.score = score;
  tender.tier = tier;
}

function townIn(province: JsonObject[string] | undefined): string {
  return (TOWNS.find(([, inProvince]) => inProvince === province) ?? TOWNS[0]!)[0];
}

/** The tender whose closing date passed longest ago (the first of equals); none without dates. */
function earliestClosing(tenders: JsonObject[]): JsonObject | undefined {
  let earliest: JsonObject | undefined;
  for (const tender of tenders) {
    if (
      typeof tender.closesOn === 'string' &&
      (earliest === undefined || tender.closesOn < (earliest.closesOn as string))
    )
      earliest = tender;
  }
  return earliest;
}

function remove(rows: JsonObject[], row: JsonObject | undefined): void {
  const at = row === undefined ? -1 : rows.indexOf(row);
  if (at >= 0) rows.splice(at, 1);
}

/** The value after `current` in `values` (the first when it is none of them). */
function nextOf(values: readonly string[], current: JsonObject[string] | undefined): string {
  return values[(values.indexOf(current as string) + 1) % values.length]!;
}

const COMPANY_NOTES = [
  'Account on hold until the statement is reconciled',
  'New banking details confirmed by phone with the MD',
  'Moved to a 60-day account',
];

function newTender(g: Generator, today: number, ocid: number, [low, high]: [number, number]): JsonObject {
  const [town, province, municipality] = g.pick(TOWNS);
  const score = g.int(low, high);
  const tier = tierOf(score);
  return {
    ocid: `ocds-9t57fa-${ocid}`,
    title: g.pick(TENDER_WORKS)(town, g.int(0, 40)),
    buyer: municipality,
    province,
    closesOn: isoDate(today + g.int(10, 75) * DAY_MS),
    runwayDays: null,
    score,
    tier,
    reasons: tenderReasons(tier, g.int(3, 8), town, g.pick),
    briefingNote: null,
    decision: null,
    analysisRunId: g.uuid(),
    docCount: g.int(1, 14),
  };
}

/** A new obligation; `payment`: a payment of a round amount (`184200.00`: cents that a double would drop). */
function newObligation(
  g: Generator,
  today: number,
  createdAt: string,
  companies: JsonObject[],
  payment: boolean,
): JsonObject {
  const [title, kind] = g.pick(payment ? OBLIGATIONS.filter(([, k]) => k === 'PAYMENT') : OBLIGATIONS);
  const pays = kind === 'PAYMENT';
  return {
    id: g.uuid(),
    title,
    kind,
    dueOn: isoDate(today + g.int(7, 60) * DAY_MS),
    status: 'OPEN',
    amount: payment ? new JsonNumber(`${g.int(15, 2500) * 100}.00`) : pays ? money(g.next, 1500, 250_000) : null,
    currency: pays ? 'ZAR' : null,
    companyId: g.pick(companies).id!,
    documentId: null,
    notes: null,
    createdAt,
  };
}

function newCompany(g: Generator, createdAt: string): JsonObject {
  return {
    id: g.uuid(),
    name: `${g.pick(COMPANY_STEMS)} ${g.pick(COMPANY_TRADES)} ${g.pick(COMPANY_SUFFIXES)}`,
    registrationNumber: `${g.int(2020, 2026)}/${String(g.int(1, 999999)).padStart(6, '0')}/07`,
    kind: g.pick(['CLIENT', 'SUPPLIER', 'SUBCONTRACTOR']),
    notes: null,
    createdAt,
  };
}

function newPerson(g: Generator, createdAt: string, companies: JsonObject[]): JsonObject {
  const fullName = `${g.pick(FIRST_NAMES)} ${g.pick(SURNAMES)}`;
  return {
    id: g.uuid(),
    companyId: g.pick(companies).id!,
    fullName,
    roleTitle: g.pick(ROLES),
    email: `${mailboxOf(fullName)}@mvw.co.za`,
    phone: `+27 82 ${g.int(100, 999)} ${String(g.int(0, 9999)).padStart(4, '0')}`,
    notes: null,
    createdAt,
  };
}

function newSite(g: Generator, createdAt: string, companies: JsonObject[]): JsonObject {
  const [town, province] = g.pick(TOWNS);
  return {
    id: g.uuid(),
    companyId: g.pick(companies).id!,
    name: `${town} ${g.pick(['Depot', 'Clinic Extension', 'Reservoir', 'Taxi Rank Upgrade'])}`,
    province,
    address: `${g.int(1, 220)} Main Road, ${town}, ${g.int(1000, 9999)}`,
    status: 'PLANNED',
    createdAt,
  };
}

function newDocument(g: Generator, k: number, createdAt: string, companies: JsonObject[]): JsonObject {
  return {
    id: g.uuid(),
    title: `Invoice INV-2027-${String(k).padStart(4, '0')}`,
    kind: 'INVOICE',
    sourceUri: `https://files.mvw.co.za/invoice/${g.hex(10)}.pdf`,
    sha256: g.hex(64),
    expiresOn: null,
    companyId: g.pick(companies).id!,
    siteId: null,
    createdAt,
  };
}
