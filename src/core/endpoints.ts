// The one table of the API's endpoints (docs/api-reference.md sections 2 and 4). Commands, the
// sandbox's routes, completions, help, the man page and the README's command list are all
// derived from it: a new endpoint is one entry here plus its demo rows in src/sandbox/data.ts.
import { DECIDED_PARAM, limitParam, TIER_PARAM, TIERS, type Param } from './params.js';

export { CLI_DEFAULT_LIMIT, LIMIT_MAX, LIMIT_MIN, TIERS, type Param, type Tier } from './params.js';

export type Scope = 'graph.read' | 'tenders.read' | 'workspaces.read';
export const SCOPES: readonly Scope[] = ['graph.read', 'tenders.read', 'workspaces.read'];

/**
 * What a field holds. `string` is free text, which a narrow table may cut; `word` is a string
 * without spaces that is no free text (an id, a code, an email, a hash), never cut. A query's
 * renamed column is read as one from its values.
 */
export type FieldType =
  | { kind: 'uuid' | 'string' | 'word' | 'date' | 'date-time' | 'integer' | 'number' }
  | { kind: 'enum'; values: readonly string[] }
  | { kind: 'string[]' };

export interface Field {
  name: string;
  type: FieldType;
}

/**
 * What data looks like to the renderers: its shape, its fields and the table's default columns.
 * Every endpoint is one; so is any other data cdata prints (profile list, webhook check).
 */
export interface View {
  /** What the rows are, for messages: `tenders`, `profiles`. */
  name: string;
  /**
   * `list`: a JSON array of rows; `object`: one JSON object. A query's result may also be
   * `values` (a list of anything but objects) or `value` (one number, string, boolean or null):
   * one column `value`, and JSON as it is (src/output/values.ts).
   */
  shape: 'list' | 'object' | 'values' | 'value';
  fields: readonly Field[];
  /**
   * Columns of the default table: the key first (what `cdata <list> KEY` takes), then the most
   * useful at a glance; `--fields` shows others.
   */
  columns: readonly string[];
  /** The field that names one row (tenders: ocid; agents: name; else id); none for an object. */
  key?: string;
  /**
   * The text column a table gives room to first (title, name, fullName, description): the one
   * column a narrow terminal cuts, with `…`.
   */
  main?: string;
  /**
   * The default columns a narrow terminal drops whole, first to last, before the main column
   * would get less than its room (docs/output.md, "Tables at a terminal"). Neither the key nor
   * the main column is ever dropped.
   */
  drop?: readonly string[];
  /**
   * Columns that leave a narrow table together and come back together, whichever of them the
   * drop order names: an amount means nothing without its currency.
   */
  together?: readonly (readonly string[])[];
  /** A field a table shows under each row, an item a line, wrapped rather than cut (changes: what changed). */
  detail?: string;
  /** Its columns are ones the user named (a query's projection): a column left out is one to name fewer of, not more. */
  named?: boolean;
}

export interface Endpoint extends View {
  /** Command name, also the export resource name and the file stem of an export. */
  name: string;
  /** The rows in a sentence, where the name reads badly there (persons: people). */
  noun?: string;
  shape: 'list' | 'object';
  aliases: readonly string[];
  path: string;
  scope: Scope;
  summary: string;
  params: readonly Param[];
  /** Shown under "Examples:" in help, in the man page and the README (the first). */
  examples: readonly string[];
  /**
   * Which rows a list's limit keeps: `newest` (newest `createdAt` first, so an export can tell
   * when rows slipped past the cap: export/coverage.ts) or `best` (tenders, best tier first);
   * none for agents and workspaces, which take no limit and carry no creation time.
   */
  firstRows?: 'newest' | 'best';
  /**
   * Fields the API works out from the day of the request (tenders' runwayDays: days to closesOn),
   * which change every day by themselves: change detection does not compare them.
   */
  computed?: readonly string[];
}

const str = { kind: 'string' } as const;
const word = { kind: 'word' } as const;
const uuid = { kind: 'uuid' } as const;
const date = { kind: 'date' } as const;
const dateTime = { kind: 'date-time' } as const;
const int = { kind: 'integer' } as const;
const num = { kind: 'number' } as const;
const strings = { kind: 'string[]' } as const;
const oneOf = (...values: string[]): FieldType => ({ kind: 'enum', values });
const f = (name: string, type: FieldType): Field => ({ name, type });

/** The graph lists default to 100 rows. */
const graphLimit = limitParam(100);
/**
 * The reference contradicts itself on the tenders default (declared 50, described 100). The
 * sandbox follows the declared schema default, 50; the CLI always sends `limit`, so its
 * answers never depend on this.
 */
const tendersLimit = limitParam(50);

export const ENDPOINTS = [
  {
    name: 'me',
    aliases: [],
    path: '/api/v1/me',
    scope: 'workspaces.read',
    shape: 'object',
    summary: "Show the key's identity: name, tenant, roles and scopes",
    examples: ['cdata me', 'cdata me --json | jq -r .tenant'],
    params: [],
    fields: [f('email', word), f('displayName', str), f('tenant', str), f('roles', strings), f('scopes', strings)],
    columns: ['displayName', 'tenant', 'roles', 'scopes'],
  },
  {
    name: 'workspaces',
    aliases: [],
    path: '/api/v1/workspaces',
    scope: 'workspaces.read',
    shape: 'list',
    summary: "List the company's product workspaces",
    key: 'id',
    examples: ['cdata workspaces', 'cdata workspaces -o csv'],
    params: [],
    fields: [
      f('id', uuid),
      f('productKey', oneOf('CONSTRUCT', 'PROPERTY', 'PROFESSIONAL', 'FINANCIAL_SERVICES', 'GROWTH')),
      f('name', str),
    ],
    columns: ['id', 'productKey', 'name'],
    main: 'name',
    drop: ['productKey'],
  },
  {
    name: 'companies',
    aliases: [],
    path: '/api/v1/graph/companies',
    scope: 'graph.read',
    shape: 'list',
    summary: 'List the companies the account deals with (clients, buyers, suppliers)',
    key: 'id',
    firstRows: 'newest',
    examples: [
      'cdata companies --limit 20',
      'cdata companies d10e897e',
      'cdata companies --json | jq -r \'.[] | select(.kind == "SUPPLIER") | .name\'',
    ],
    params: [graphLimit],
    fields: [
      f('id', uuid),
      f('name', str),
      f('registrationNumber', word),
      f('kind', oneOf('CLIENT', 'BUYER', 'SUPPLIER', 'SUBCONTRACTOR', 'OTHER')),
      f('notes', str),
      f('createdAt', dateTime),
    ],
    columns: ['id', 'name', 'kind', 'registrationNumber', 'createdAt'],
    main: 'name',
    drop: ['createdAt', 'registrationNumber', 'kind'],
  },
  {
    name: 'documents',
    aliases: [],
    path: '/api/v1/graph/documents',
    scope: 'graph.read',
    shape: 'list',
    summary: 'List document records (contracts, tender packs, certificates, invoices)',
    key: 'id',
    firstRows: 'newest',
    examples: ['cdata documents --fields title,kind,expiresOn', 'cdata documents -o csv --out documents.csv'],
    params: [graphLimit],
    fields: [
      f('id', uuid),
      f('title', str),
      f('kind', oneOf('CONTRACT', 'TENDER_PACK', 'CERTIFICATE', 'INVOICE', 'OTHER')),
      f('sourceUri', word),
      f('sha256', word),
      f('expiresOn', date),
      f('companyId', uuid),
      f('siteId', uuid),
      f('createdAt', dateTime),
    ],
    columns: ['id', 'title', 'kind', 'expiresOn', 'createdAt'],
    main: 'title',
    drop: ['createdAt', 'expiresOn', 'kind'],
  },
  {
    name: 'obligations',
    aliases: [],
    path: '/api/v1/graph/obligations',
    scope: 'graph.read',
    shape: 'list',
    summary: 'List obligations: what the company must do or is owed',
    key: 'id',
    firstRows: 'newest',
    examples: [
      'cdata obligations --limit 200 -o csv --out obligations.csv',
      'cdata obligations --json | jq \'[.[] | select(.status == "OPEN")] | length\'',
    ],
    params: [graphLimit],
    fields: [
      f('id', uuid),
      f('title', str),
      f('kind', oneOf('COMPLIANCE', 'CONTRACTUAL', 'PAYMENT', 'OTHER')),
      f('dueOn', date),
      f('status', oneOf('OPEN', 'DONE')),
      f('amount', num),
      f('currency', word),
      f('companyId', uuid),
      f('documentId', uuid),
      f('notes', str),
      f('createdAt', dateTime),
    ],
    columns: ['id', 'title', 'kind', 'status', 'dueOn', 'amount', 'currency'],
    main: 'title',
    drop: ['kind', 'currency', 'amount', 'dueOn', 'status'],
    together: [['amount', 'currency']],
  },
  {
    name: 'persons',
    noun: 'people',
    aliases: ['people'],
    path: '/api/v1/graph/persons',
    scope: 'graph.read',
    shape: 'list',
    summary: 'List contact people (personal information: use only as authorised)',
    key: 'id',
    firstRows: 'newest',
    examples: ['cdata people --fields fullName,email,phone', 'cdata persons -o ndjson'],
    params: [graphLimit],
    fields: [
      f('id', uuid),
      f('companyId', uuid),
      f('fullName', str),
      f('roleTitle', str),
      f('email', word),
      f('phone', str),
      f('notes', str),
      f('createdAt', dateTime),
    ],
    columns: ['id', 'fullName', 'roleTitle', 'email', 'phone'],
    main: 'fullName',
    drop: ['roleTitle', 'phone', 'email'],
  },
  {
    name: 'sites',
    aliases: [],
    path: '/api/v1/graph/sites',
    scope: 'graph.read',
    shape: 'list',
    summary: 'List sites: construction sites, properties, offices',
    key: 'id',
    firstRows: 'newest',
    examples: ['cdata sites', 'cdata sites --json | jq -r \'.[] | select(.status == "ACTIVE") | .name\''],
    params: [graphLimit],
    fields: [
      f('id', uuid),
      f('companyId', uuid),
      f('name', str),
      f('province', str),
      f('address', str),
      f('status', oneOf('ACTIVE', 'PLANNED', 'CLOSED')),
      f('createdAt', dateTime),
    ],
    columns: ['id', 'name', 'status', 'province', 'address'],
    main: 'name',
    drop: ['address', 'province', 'status'],
  },
  {
    name: 'tenders',
    aliases: [],
    path: '/api/v1/tenders',
    scope: 'tenders.read',
    shape: 'list',
    summary: 'List public tenders matched to the company, best tier first',
    key: 'ocid',
    examples: [
      'cdata tenders --tier RECOMMENDED',
      'cdata tenders --tier worth-a-look --undecided',
      'cdata tenders ocds-9t57fa-140905',
      "cdata tenders --json | jq -r '.[] | [.ocid, .closesOn, .title] | @tsv'",
    ],
    firstRows: 'best',
    computed: ['runwayDays'],
    params: [TIER_PARAM, DECIDED_PARAM, tendersLimit],
    fields: [
      f('ocid', word),
      f('title', str),
      f('buyer', str),
      f('province', str),
      f('closesOn', date),
      f('runwayDays', int),
      f('score', int),
      f('tier', oneOf(...TIERS)),
      f('reasons', strings),
      f('briefingNote', str),
      f('decision', oneOf('BID', 'NO_BID', 'CLARIFY_FIRST')),
      f('analysisRunId', uuid),
      f('docCount', int),
    ],
    columns: ['ocid', 'tier', 'score', 'title', 'buyer', 'closesOn', 'runwayDays', 'decision'],
    main: 'title',
    drop: ['buyer', 'score', 'runwayDays', 'decision', 'closesOn', 'tier'],
  },
  {
    name: 'agents',
    aliases: [],
    path: '/api/v1/agents',
    scope: 'tenders.read',
    shape: 'list',
    summary: 'List the governed agents and the authority each may act at',
    key: 'name',
    examples: ['cdata agents', 'cdata agents tender-scout', 'cdata agents --fields name,authority,restrictedActions'],
    params: [],
    fields: [
      f('name', word),
      f('description', str),
      f(
        'authority',
        oneOf('OBSERVE', 'RESEARCH', 'RECOMMEND', 'PREPARE', 'DRAFT', 'EXECUTE_WITH_APPROVAL', 'AUTONOMOUS'),
      ),
      f('tools', strings),
      f('outputType', word),
      f('restrictedActions', strings),
    ],
    columns: ['name', 'authority', 'outputType', 'description'],
    main: 'description',
    drop: ['outputType', 'authority'],
  },
] as const satisfies readonly Endpoint[];

export type EndpointName = (typeof ENDPOINTS)[number]['name'];

/** The list endpoints, in table order: what `cdata export` writes by default. */
export const LIST_ENDPOINTS: readonly Endpoint[] = ENDPOINTS.filter((e) => e.shape === 'list');

export function findEndpoint(nameOrAlias: string): Endpoint | undefined {
  return (ENDPOINTS as readonly Endpoint[]).find((e) => e.name === nameOrAlias || e.aliases.includes(nameOrAlias));
}

/** The endpoint of a name the table is known to hold. */
export function endpointNamed(name: EndpointName): Endpoint {
  return (ENDPOINTS as readonly Endpoint[]).find((e) => e.name === name)!;
}

export function fieldNames(view: View): string[] {
  return view.fields.map((field) => field.name);
}

/** What an endpoint's rows are called in a sentence: `These are the 5 newest people`. */
export function rowsNoun(endpoint: Pick<Endpoint, 'name' | 'noun'>): string {
  return endpoint.noun ?? endpoint.name;
}
