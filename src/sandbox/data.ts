// The sandbox's demo data: deterministic for a given day (a seeded generator; dates are relative
// to the sandbox's clock so the demo always looks current), realistic, and carrying the awkward
// values real data has: commas, quotes, newlines, non-Latin names, formula-like notes, nulls and
// a tender title with terminal escape sequences.
import { JsonNumber } from '../core/json.js';
import type { ExactNumber, JsonObject } from '../core/json-value.js';
import { TIERS, type EndpointName } from '../core/endpoints.js';
import {
  AGENTS,
  NATIONAL_BUYERS,
  PROVINCIAL_BUYERS,
  COMPANY_STEMS,
  COMPANY_SUFFIXES,
  COMPANY_TRADES,
  FIRST_NAMES,
  OBLIGATIONS,
  ROLES,
  SURNAMES,
  TENANT,
  TENDER_WORKS,
  TOWNS,
} from './vocabulary.js';

export { TENANT };

export const COUNTS = { companies: 48, persons: 72, sites: 24, documents: 96, obligations: 240, tenders: 64 };

export const DAY_MS = 86_400_000;

/** mulberry32: a small, well-distributed seeded generator. */
export function generator(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const chance = (p: number) => next() < p;
  const hex = (n: number) => Array.from({ length: n }, () => Math.floor(next() * 16).toString(16)).join('');
  const uuid = () => `${hex(8)}-${hex(4)}-4${hex(3)}-${pick(['8', '9', 'a', 'b'])}${hex(3)}-${hex(12)}`;
  return { next, int, pick, chance, hex, uuid };
}

export const isoDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);
export const money = (rand: () => number, min: number, max: number): ExactNumber =>
  new JsonNumber((min + rand() * (max - min)).toFixed(2));

export interface DemoData {
  /** Midnight UTC of the day the data was generated for; runwayDays counts from it. */
  today: number;
  rows: Record<Exclude<EndpointName, 'me'>, JsonObject[]>;
}

/**
 * Every list, already newest first (tenders: best tier first, then highest score), as of `now`.
 * The same day always gives the same data.
 */
export function demoData(now: number): DemoData {
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  const g = generator(20261122);
  // createdAt: spread over the past ~500 days, strictly decreasing, with fractional seconds.
  // Counted back from midnight, not from `now`, so that the whole day serves the same data.
  const createdAt = (index: number, spacingHours: number) =>
    new Date(today - (index + 1) * spacingHours * 3_600_000 - g.int(0, 3_599_999)).toISOString();

  const companies: JsonObject[] = [];
  for (let i = 0; i < COUNTS.companies; i++) {
    const special = SPECIAL_COMPANIES[i];
    const name = special?.name ?? `${g.pick(COMPANY_STEMS)} ${g.pick(COMPANY_TRADES)} ${g.pick(COMPANY_SUFFIXES)}`;
    companies.push({
      id: g.uuid(),
      name,
      registrationNumber: g.chance(0.85)
        ? `${g.int(1998, 2024)}/${String(g.int(1, 999999)).padStart(6, '0')}/07`
        : null,
      kind: special?.kind ?? g.pick(['CLIENT', 'BUYER', 'SUPPLIER', 'SUBCONTRACTOR', 'SUBCONTRACTOR', 'OTHER']),
      notes: special?.notes ?? (g.chance(0.4) ? g.pick(COMPANY_NOTES) : null),
      createdAt: createdAt(i, 230),
    });
  }
  const companyId = () => (g.chance(0.8) ? g.pick(companies).id! : null);

  const persons: JsonObject[] = [];
  for (let i = 0; i < COUNTS.persons; i++) {
    const special = SPECIAL_PEOPLE[i];
    const first = g.pick(FIRST_NAMES);
    const last = g.pick(SURNAMES);
    const fullName = special?.fullName ?? `${first} ${last}`;
    // The address follows the name (accents dropped); a name with no Latin letters has its own.
    const mailbox = mailboxOf(fullName);
    persons.push({
      id: g.uuid(),
      companyId: companyId(),
      fullName,
      roleTitle: g.chance(0.9) ? g.pick(ROLES) : null,
      email: g.chance(0.85)
        ? (special?.email ??
          `${mailbox}@${g.pick(['mvw.co.za', 'gmail.com', 'tshwane.gov.za', 'ubuntu-civils.co.za'])}`)
        : null,
      phone: g.chance(0.8)
        ? `+27 ${g.pick(['82', '83', '71', '11', '21', '31'])} ${g.int(100, 999)} ${String(g.int(0, 9999)).padStart(4, '0')}`
        : null,
      notes: special?.notes ?? (g.chance(0.3) ? g.pick(PERSON_NOTES) : null),
      createdAt: createdAt(i, 150),
    });
  }

  const sites: JsonObject[] = [];
  for (let i = 0; i < COUNTS.sites; i++) {
    const [town, province] = TOWNS[i % TOWNS.length]!;
    sites.push({
      id: g.uuid(),
      companyId: companyId(),
      name: SITE_NAMES[i % SITE_NAMES.length]!(town),
      province: g.chance(0.9) ? province : null,
      address: g.chance(0.8) ? `${g.int(1, 220)} ${g.pick(STREETS)}, ${town}, ${g.int(1000, 9999)}` : null,
      status: i < 3 ? 'PLANNED' : g.pick(['ACTIVE', 'ACTIVE', 'CLOSED', 'PLANNED']),
      createdAt: createdAt(i, 400),
    });
  }
  sites[4]!.address = '2nd Floor, Block C, "The Oval", 1 Oakdale Road, Newlands, Cape Town';

  const documents: JsonObject[] = [];
  for (let i = 0; i < COUNTS.documents; i++) {
    const [title, kind, lapses] = DOCUMENT_KINDS[i % DOCUMENT_KINDS.length]!(g.int(1, 999), g.pick(TOWNS)[0]);
    const site = g.chance(0.5) ? g.pick(sites) : undefined;
    documents.push({
      id: g.uuid(),
      title,
      kind,
      sourceUri: g.chance(0.7) ? `https://files.mvw.co.za/${kind.toLowerCase()}/${g.hex(10)}.pdf` : null,
      sha256: g.chance(0.75) ? g.hex(64) : null,
      expiresOn: lapses ? isoDate(today + g.int(-60, 540) * DAY_MS) : null,
      companyId: companyId(),
      siteId: site ? site.id! : null,
      createdAt: createdAt(i, 90),
    });
  }

  const obligations: JsonObject[] = [];
  for (let i = 0; i < COUNTS.obligations; i++) {
    const [title, kind] = SPECIAL_OBLIGATIONS[i] ?? g.pick(OBLIGATIONS);
    const dueOffset = g.int(-90, 150);
    const hasDue = g.chance(0.9);
    const pays = kind === 'PAYMENT' || (kind === 'CONTRACTUAL' && g.chance(0.5));
    obligations.push({
      id: g.uuid(),
      title,
      kind,
      dueOn: hasDue ? isoDate(today + dueOffset * DAY_MS) : null,
      status: hasDue && dueOffset < 0 && g.chance(0.8) ? 'DONE' : 'OPEN',
      amount: pays ? money(g.next, 1500, 2_500_000) : null,
      currency: pays ? (g.chance(0.95) ? 'ZAR' : g.pick(['USD', 'EUR'])) : null,
      companyId: companyId(),
      documentId: g.chance(0.5) ? g.pick(documents).id! : null,
      notes: SPECIAL_OBLIGATION_NOTES[i] ?? (g.chance(0.35) ? g.pick(OBLIGATION_NOTES) : null),
      createdAt: createdAt(i, 48),
    });
  }

  const tenders: JsonObject[] = [];
  for (let i = 0; i < COUNTS.tenders; i++) {
    const [town, province, municipality] = g.pick(TOWNS);
    const score = g.int(22, 97);
    const tier = tierOf(score);
    const closes = g.chance(0.9) ? today + g.int(-20, 75) * DAY_MS : null;
    const grade = g.int(3, 8);
    tenders.push({
      ocid: `ocds-9t57fa-${String(140000 + i * 37 + g.int(0, 36))}`,
      title: SPECIAL_TENDER_TITLES[i] ?? g.pick(TENDER_WORKS)(town, g.int(0, 40)),
      // Mostly the town's own municipality, sometimes the province, now and then a national body.
      buyer: g.chance(0.65) ? municipality : g.chance(0.7) ? PROVINCIAL_BUYERS[province]! : g.pick(NATIONAL_BUYERS),
      province: g.chance(0.9) ? province : null,
      closesOn: closes === null ? null : isoDate(closes),
      runwayDays: null,
      score,
      tier,
      reasons: tenderReasons(tier, grade, town, g.pick),
      briefingNote: g.chance(0.6) ? g.pick(BRIEFINGS)(isoDate(today + g.int(1, 20) * DAY_MS), town) : null,
      decision: g.chance(0.55) ? null : g.pick(['BID', 'NO_BID', 'CLARIFY_FIRST']),
      analysisRunId: g.chance(0.6) ? g.uuid() : null,
      docCount: g.int(0, 14),
    });
  }
  sortTenders(tenders);

  return {
    today,
    rows: {
      workspaces: [
        { id: g.uuid(), productKey: 'CONSTRUCT', name: 'Construction' },
        { id: g.uuid(), productKey: 'PROPERTY', name: 'Property portfolio' },
        { id: g.uuid(), productKey: 'GROWTH', name: 'Growth & tenders' },
      ],
      companies,
      documents,
      obligations,
      persons,
      sites,
      tenders,
      agents: AGENTS.map((a) => ({ ...a, tools: [...a.tools], restrictedActions: [...a.restrictedActions] })),
    },
  };
}

/** An e-mail address's mailbox for a name: accents dropped, dots for spaces (empty for a name with no Latin letters). */
export const mailboxOf = (fullName: string): string =>
  fullName
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z ]/g, '')
    .trim()
    .replace(/\s+/g, '.');

/** Tenders in the API's order: best tier first, then highest score (a stable sort: ties keep their order). */
export function sortTenders(tenders: JsonObject[]): void {
  tenders.sort(
    (a, b) => TIERS.indexOf(a.tier as never) - TIERS.indexOf(b.tier as never) || Number(b.score) - Number(a.score),
  );
}

/** A tender's tier follows its score. */
export const tierOf = (score: number): string => (score >= 75 ? TIERS[0] : score >= 50 ? TIERS[1] : TIERS[2]);

/** runwayDays is computed per request: days from the sandbox's today (UTC) to the closing date. */
export function withRunway(tender: JsonObject, now: number): JsonObject {
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  const closesOn = tender.closesOn;
  return {
    ...tender,
    runwayDays: typeof closesOn === 'string' ? Math.round((Date.parse(closesOn) - today) / DAY_MS) : null,
  };
}

export function tenderReasons(
  tier: string,
  grade: number,
  town: string,
  pick: <T>(items: readonly T[]) => T,
): string[] {
  const cidb = pick(['CE', 'GB', 'EP', 'ME']);
  const reasons = [
    tier === 'STRETCH'
      ? `Requires CIDB ${grade + 1}${cidb}; the company holds ${grade}${cidb}`
      : `CIDB ${grade}${cidb} required; the company holds ${grade}${cidb}`,
    `Site is in ${town}, ${pick(['within 60 km of an active site', 'a province the company works in', 'outside the usual area'])}`,
  ];
  if (tier === 'RECOMMENDED')
    reasons.push(
      pick([
        'Similar project completed in 2024 (clinic extension, R 14.2m)',
        'Buyer paid on time on the last 3 contracts',
      ]),
    );
  return reasons;
}

const SPECIAL_COMPANIES: Record<number, { name: string; kind?: string; notes?: string | null }> = {
  0: {
    name: 'City of Tshwane Metropolitan Municipality',
    kind: 'BUYER',
    notes: 'Pays on the 25th; invoices must quote the order number, the project number, and the ward',
  },
  2: { name: 'Nkosi, Dlamini and Partners Inc.', kind: 'CLIENT', notes: 'Attorneys; "urgent" means within 48 hours' },
  3: { name: 'AfriSam (South Africa) (Pty) Ltd', kind: 'SUPPLIER', notes: null },
  5: {
    name: 'Pieterse & Seuns (Edms) Bpk',
    kind: 'SUBCONTRACTOR',
    notes: 'Formwork crew.\nAvailable from January; 14 days notice required.',
  },
  7: { name: "王氏建材 (Wang's Building Supplies)", kind: 'SUPPLIER', notes: 'Imports tiles and sanitaryware' },
  9: { name: '"Big Yellow" Plant Hire', kind: 'SUPPLIER', notes: '=HYPERLINK("https://example.invalid","quote")' },
  11: { name: "Zoë's Scaffolding & Access CC", kind: 'SUBCONTRACTOR', notes: '+15% after-hours surcharge' },
  13: { name: 'Αθηνά Engineering Consultants', kind: 'OTHER', notes: '-5% early payment discount' },
};

const COMPANY_NOTES = [
  'Preferred supplier, 30-day account',
  'B-BBEE Level 1; 51% black women owned',
  'Ask for the site agent, not the office',
  'Retention: 10%, released at practical completion',
  '@procurement: confirm tax status before each order',
  'Slow to answer, but reliable on site',
];

const SPECIAL_PEOPLE: Record<number, { fullName: string; email?: string; notes?: string }> = {
  1: { fullName: 'Nomvula Mahlangu-Nkosi', notes: 'Prefers WhatsApp, not e-mail' },
  4: { fullName: '王伟', email: 'wang.wei@wangs.co.za', notes: 'Speaks Mandarin and English' },
  6: { fullName: 'Zoë van der Merwe', notes: 'Signs off scaffolding: "safe to use" tags' },
  9: { fullName: 'Ἀλέξανδρος Papadopoulos' },
  12: { fullName: 'Fatima Ebrahim (née Patel)', notes: '=CMD|"/c calc"!A0' },
  15: { fullName: "Pieter O'Neill, Jnr", notes: 'Line one\nLine two, with a comma' },
};

const PERSON_NOTES = [
  'Met at the CESA conference',
  'Alternate contact for the Soweto clinic site',
  '+ copy in the QS on every variation order',
  'On leave in December',
];

const SITE_NAMES = [
  (town: string) => `${town} Clinic Extension`,
  (town: string) => `${town} Road Upgrade`,
  (town: string) => `${town} Reservoir`,
  (town: string) => `${town} Primary School: new classrooms`,
  (town: string) => `${town} office`,
];

const STREETS = [
  'Rivonia Road',
  'Jan Smuts Avenue',
  'Church Street',
  'Voortrekker Road',
  'Nelson Mandela Drive',
  'Main Reef Road',
];

const DOCUMENT_KINDS: readonly ((n: number, town: string) => [string, string, boolean])[] = [
  (n, town) => [`Contract: ${town} works, JBCC Principal Building Agreement #${n}`, 'CONTRACT', false],
  (n) => [`Tender pack: ocds-9t57fa-${140000 + n}`, 'TENDER_PACK', false],
  () => ['CIDB registration certificate', 'CERTIFICATE', true],
  () => ['Tax compliance status (SARS PIN)', 'CERTIFICATE', true],
  (n) => [`Invoice INV-2026-${String(n).padStart(4, '0')}`, 'INVOICE', false],
  () => ['B-BBEE Level 2 certificate', 'CERTIFICATE', true],
  (_n, town) => [`Site photos, ${town}, week ${(_n % 52) + 1}`, 'OTHER', false],
];

const SPECIAL_OBLIGATIONS: Record<number, (typeof OBLIGATIONS)[number]> = {
  1: ['Pay AfriSam, "cement, 42.5N", invoice 8812', 'PAYMENT'],
  3: ['Retention release: 5% of R 1,250,000.00', 'PAYMENT'],
  8: ['Renew letter of good standing\n(Compensation Fund)', 'COMPLIANCE'],
};

const SPECIAL_OBLIGATION_NOTES: Record<number, string> = {
  0: '=SUM(A1:A9)',
  2: '-R 15 000 retention withheld until snag list is closed',
  4: '@finance please confirm the bank details by phone',
  6: '+VAT (15%)',
  9: 'Tab\tseparated\tnote',
};

const OBLIGATION_NOTES = [
  'Penalty of R 5,000 per day after the due date',
  'Paid by EFT; proof of payment on file',
  'Waiting for the engineer to sign the payment certificate',
  'Reminder set two weeks before',
];

const SPECIAL_TENDER_TITLES: Record<number, string> = {
  2: 'Supply of \u001b[31mURGENT\u001b[0m road-marking paint \u001b]8;;https://evil.example/\u0007(click)\u001b]8;;\u0007\u001b]52;c;ZWNobyBwd25lZA==\u0007',
  5: 'Refurbishment of the "Old Fort" heritage building, Phase 2: roofing, waterproofing, and rewiring',
  9: 'Construction of a multipurpose hall \u202eretne\u202c, ward 7',
};

const BRIEFINGS = [
  (day: string, town: string) =>
    `Compulsory briefing session on ${day} at 10:00, ${town} Civic Centre, Committee Room 2. Bring your CSD summary report.`,
  (day: string) => `Non-compulsory virtual briefing on ${day} at 11:00 (MS Teams link on request).`,
  (day: string, town: string) => `Compulsory site inspection:\n${day} 09:00\nMeet at the ${town} depot gate`,
];
