// What each endpoint answers, worked out per request from the demo data. One entry per endpoint
// of the table (a new endpoint without an answer here is a compile error), so the server itself
// never looks at an endpoint's name.
import type { Endpoint, EndpointName } from '../core/endpoints.js';
import type { JsonValue } from '../core/json-value.js';
import { TENANT, withRunway, type DemoData } from './data.js';
import type { DemoKey } from './keys.js';
import { selectRows } from './query.js';

export interface AnswerRequest {
  endpoint: Endpoint;
  query: URLSearchParams;
  /** The demo key that asked: /me describes it. */
  key: DemoKey;
  data: DemoData;
  now: number;
}

type Answer = (request: AnswerRequest) => JsonValue;

/** The list's rows the query selects. */
const rows =
  (list: keyof DemoData['rows']): Answer =>
  ({ endpoint, query, data }) =>
    selectRows(endpoint, data.rows[list], query);

export const ANSWERS: Record<EndpointName, Answer> = {
  me: ({ key }) => ({ displayName: key.displayName, tenant: TENANT, roles: ['API'], scopes: [...key.scopes] }),
  workspaces: rows('workspaces'),
  companies: rows('companies'),
  documents: rows('documents'),
  obligations: rows('obligations'),
  persons: rows('persons'),
  sites: rows('sites'),
  // runwayDays counts from the day of the request.
  tenders: (request) =>
    selectRows(request.endpoint, request.data.rows.tenders, request.query).map((tender) =>
      withRunway(tender, request.now),
    ),
  agents: rows('agents'),
};
