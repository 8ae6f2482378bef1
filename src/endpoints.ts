// The one table of the API's endpoints (api-reference.md parts 2 and 4). Commands, the
// sandbox's routes, completions, help and the README's command list are all derived from it:
// a new endpoint is one entry here plus its demo rows in src/sandbox/data.ts.

export type Scope = 'graph.read' | 'tenders.read' | 'workspaces.read';
export const SCOPES: readonly Scope[] = ['graph.read', 'tenders.read', 'workspaces.read'];

export const TIERS = ['RECOMMENDED', 'WORTH_A_LOOK', 'STRETCH'] as const;
export type Tier = (typeof TIERS)[number];

export const LIMIT_MIN = 1;
export const LIMIT_MAX = 200;
/** What the CLI sends when --limit is not given (PRODUCT.md section 1). */
export const CLI_DEFAULT_LIMIT = 100;

export type FieldType =
  | { kind: 'uuid' | 'string' | 'date' | 'date-time' | 'integer' | 'number' }
  | { kind: 'enum'; values: readonly string[] }
  | { kind: 'string[]' };

export interface Field {
  name: string;
  type: FieldType;
}

export type Param =
  | { name: 'limit'; kind: 'limit'; serverDefault: number }
  | { name: 'tier'; kind: 'enum'; values: readonly string[] }
  | { name: 'decided'; kind: 'boolean' };

export interface Endpoint {
  /** Command name, also the export resource name and the file stem of an export. */
  name: string;
  aliases: readonly string[];
  path: string;
  scope: Scope;
  /** `list`: a JSON array of rows; `object`: one JSON object. */
  shape: 'list' | 'object';
  summary: string;
  params: readonly Param[];
  fields: readonly Field[];
  /** Columns of the default table, most useful at a glance; `--fields` shows others. */
  columns: readonly string[];
  /** Which rows a list's limit keeps: `newest` (every list, per the reference) or `best` (tenders, best tier first). */
  firstRows?: 'newest' | 'best';
}

const str = { kind: 'string' } as const;
const uuid = { kind: 'uuid' } as const;
const date = { kind: 'date' } as const;
const dateTime = { kind: 'date-time' } as const;
const int = { kind: 'integer' } as const;
const num = { kind: 'number' } as const;
const strings = { kind: 'string[]' } as const;
const oneOf = (...values: string[]): FieldType => ({ kind: 'enum', values });
const f = (name: string, type: FieldType): Field => ({ name, type });

/** The graph lists default to 100 rows. */
const graphLimit: Param = { name: 'limit', kind: 'limit', serverDefault: 100 };
/**
 * The reference contradicts itself on the tenders default (declared 50, described 100). The
 * sandbox follows the declared schema default, 50; the CLI always sends `limit`, so its
 * answers never depend on this.
 */
const tendersLimit: Param = { name: 'limit', kind: 'limit', serverDefault: 50 };

export const ENDPOINTS = [
  {
    name: 'me',
    aliases: [],
    path: '/api/v1/me',
    scope: 'workspaces.read',
    shape: 'object',
    summary: "Show the key's identity: name, tenant, roles and scopes",
    params: [],
    fields: [f('email', str), f('displayName', str), f('tenant', str), f('roles', strings), f('scopes', strings)],
    columns: ['displayName', 'tenant', 'roles', 'scopes'],
  },
  {
    name: 'workspaces',
    aliases: [],
    path: '/api/v1/workspaces',
    scope: 'workspaces.read',
    shape: 'list',
    summary: "List the company's product workspaces",
    params: [],
    fields: [
      f('id', uuid),
      f('productKey', oneOf('CONSTRUCT', 'PROPERTY', 'PROFESSIONAL', 'FINANCIAL_SERVICES', 'GROWTH')),
      f('name', str),
    ],
    columns: ['productKey', 'name', 'id'],
  },
  {
    name: 'companies',
    aliases: [],
    path: '/api/v1/graph/companies',
    scope: 'graph.read',
    shape: 'list',
    summary: 'List the companies the account deals with (clients, buyers, suppliers)',
    params: [graphLimit],
    fields: [
      f('id', uuid),
      f('name', str),
      f('registrationNumber', str),
      f('kind', oneOf('CLIENT', 'BUYER', 'SUPPLIER', 'SUBCONTRACTOR', 'OTHER')),
      f('notes', str),
      f('createdAt', dateTime),
    ],
    columns: ['name', 'kind', 'registrationNumber', 'createdAt'],
  },
  {
    name: 'documents',
    aliases: [],
    path: '/api/v1/graph/documents',
    scope: 'graph.read',
    shape: 'list',
    summary: 'List document records (contracts, tender packs, certificates, invoices)',
    params: [graphLimit],
    fields: [
      f('id', uuid),
      f('title', str),
      f('kind', oneOf('CONTRACT', 'TENDER_PACK', 'CERTIFICATE', 'INVOICE', 'OTHER')),
      f('sourceUri', str),
      f('sha256', str),
      f('expiresOn', date),
      f('companyId', uuid),
      f('siteId', uuid),
      f('createdAt', dateTime),
    ],
    columns: ['title', 'kind', 'expiresOn', 'createdAt'],
  },
  {
    name: 'obligations',
    aliases: [],
    path: '/api/v1/graph/obligations',
    scope: 'graph.read',
    shape: 'list',
    summary: 'List obligations: what the company must do or is owed',
    params: [graphLimit],
    fields: [
      f('id', uuid),
      f('title', str),
      f('kind', oneOf('COMPLIANCE', 'CONTRACTUAL', 'PAYMENT', 'OTHER')),
      f('dueOn', date),
      f('status', oneOf('OPEN', 'DONE')),
      f('amount', num),
      f('currency', str),
      f('companyId', uuid),
      f('documentId', uuid),
      f('notes', str),
      f('createdAt', dateTime),
    ],
    columns: ['title', 'kind', 'status', 'dueOn', 'amount', 'currency'],
  },
  {
    name: 'persons',
    aliases: ['people'],
    path: '/api/v1/graph/persons',
    scope: 'graph.read',
    shape: 'list',
    summary: 'List contact people (personal information: use only as authorised)',
    params: [graphLimit],
    fields: [
      f('id', uuid),
      f('companyId', uuid),
      f('fullName', str),
      f('roleTitle', str),
      f('email', str),
      f('phone', str),
      f('notes', str),
      f('createdAt', dateTime),
    ],
    columns: ['fullName', 'roleTitle', 'email', 'phone'],
  },
  {
    name: 'sites',
    aliases: [],
    path: '/api/v1/graph/sites',
    scope: 'graph.read',
    shape: 'list',
    summary: 'List sites: construction sites, properties, offices',
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
    columns: ['name', 'status', 'province', 'address'],
  },
  {
    name: 'tenders',
    aliases: [],
    path: '/api/v1/tenders',
    scope: 'tenders.read',
    shape: 'list',
    summary: 'List public tenders matched to the company, best tier first',
    firstRows: 'best',
    params: [{ name: 'tier', kind: 'enum', values: TIERS }, { name: 'decided', kind: 'boolean' }, tendersLimit],
    fields: [
      f('ocid', str),
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
    columns: ['tier', 'score', 'title', 'buyer', 'closesOn', 'runwayDays', 'decision'],
  },
  {
    name: 'agents',
    aliases: [],
    path: '/api/v1/agents',
    scope: 'tenders.read',
    shape: 'list',
    summary: 'List the governed agents and the authority each may act at',
    params: [],
    fields: [
      f('name', str),
      f('description', str),
      f('authority', oneOf('OBSERVE', 'RESEARCH', 'RECOMMEND', 'PREPARE', 'DRAFT', 'EXECUTE_WITH_APPROVAL', 'AUTONOMOUS')),
      f('tools', strings),
      f('outputType', str),
      f('restrictedActions', strings),
    ],
    columns: ['name', 'authority', 'outputType', 'description'],
  },
] as const satisfies readonly Endpoint[];

export type EndpointName = (typeof ENDPOINTS)[number]['name'];

/** The list endpoints, in table order: what `cdata export` writes by default. */
export const LIST_ENDPOINTS: readonly Endpoint[] = ENDPOINTS.filter((e) => e.shape === 'list');

export function findEndpoint(nameOrAlias: string): Endpoint | undefined {
  return (ENDPOINTS as readonly Endpoint[]).find((e) => e.name === nameOrAlias || e.aliases.includes(nameOrAlias));
}

export function fieldNames(endpoint: Endpoint): string[] {
  return endpoint.fields.map((field) => field.name);
}

export function hasParam(endpoint: Endpoint, name: Param['name']): boolean {
  return endpoint.params.some((p) => p.name === name);
}
