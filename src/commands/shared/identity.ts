// The key's identity from /api/v1/me, for `auth login` (checking a new key) and `auth status`.
import { endpointNamed } from '../../core/endpoints.js';
import { ForbiddenError } from '../../core/errors.js';
import { isJsonObject } from '../../core/json.js';
import { openClient, type ApiContext } from './api.js';

export interface Identity {
  tenant: unknown;
  displayName: unknown;
  roles: unknown;
  scopes: unknown;
}

/**
 * What /me says about `key` (default: the resolved key), or null when the key is valid but lacks
 * workspaces.read, which /me needs (403 naming it). Any other failure is thrown.
 */
export async function fetchIdentity(context: ApiContext, key?: string): Promise<Identity | null> {
  const me = endpointNamed('me');
  const client = await openClient(context, key);
  try {
    const { data } = await client.get(me, {});
    const body = isJsonObject(data) ? data : {};
    return {
      tenant: body.tenant ?? null,
      displayName: body.displayName ?? null,
      roles: body.roles ?? null,
      scopes: body.scopes ?? null,
    };
  } catch (error) {
    if (error instanceof ForbiddenError && error.message.includes('workspaces.read')) return null;
    throw error;
  } finally {
    await client.close();
  }
}
