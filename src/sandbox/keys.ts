// Demo keys: deterministic, so docs and scripts can name them, and printed at start. The server
// keeps only their SHA-256 digests, as the platform does (docs/api-reference.md section 5.2).
import { createHash } from 'node:crypto';
import { SCOPES, type Scope } from '../core/endpoints.js';

export interface DemoKey {
  id:
    | 'all'
    | 'graph'
    | 'tenders'
    | 'workspaces'
    | 'graph+tenders'
    | 'graph+workspaces'
    | 'tenders+workspaces'
    | 'revoked';
  displayName: string;
  scopes: readonly Scope[];
  revoked: boolean;
}

/** One key per combination of scopes (docs/sandbox.md), and one revoked. */
export const DEMO_KEYS: readonly DemoKey[] = [
  { id: 'all', displayName: 'Sandbox: all scopes', scopes: SCOPES, revoked: false },
  { id: 'graph', displayName: 'Sandbox: graph.read only', scopes: ['graph.read'], revoked: false },
  { id: 'tenders', displayName: 'Sandbox: tenders.read only', scopes: ['tenders.read'], revoked: false },
  { id: 'workspaces', displayName: 'Sandbox: workspaces.read only', scopes: ['workspaces.read'], revoked: false },
  {
    id: 'graph+tenders',
    displayName: 'Sandbox: graph.read + tenders.read',
    scopes: ['graph.read', 'tenders.read'],
    revoked: false,
  },
  {
    id: 'graph+workspaces',
    displayName: 'Sandbox: graph.read + workspaces.read',
    scopes: ['graph.read', 'workspaces.read'],
    revoked: false,
  },
  {
    id: 'tenders+workspaces',
    displayName: 'Sandbox: tenders.read + workspaces.read',
    scopes: ['tenders.read', 'workspaces.read'],
    revoked: false,
  },
  { id: 'revoked', displayName: 'Sandbox: revoked', scopes: SCOPES, revoked: true },
];

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** The key string of a demo key: `svc_` and 32 base62 characters derived from its id. */
export function demoKey(id: DemoKey['id']): string {
  const bytes = createHash('sha256').update(`cdata sandbox demo key: ${id}`).digest();
  let body = '';
  for (let i = 0; i < 32; i++) body += BASE62[bytes[i]! % 62];
  return `svc_${body}`;
}

export function digest(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** Digest -> key record; the only form in which the server holds keys. */
export function keyTable(): Map<string, DemoKey> {
  return new Map(DEMO_KEYS.map((k) => [digest(demoKey(k.id)), k]));
}
