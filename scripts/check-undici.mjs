// Used by scripts/build.mjs before every build; test/install/undici-check.test.ts tries it on
// stand-ins for an upgraded undici.
import { createRequire } from 'node:module';

/**
 * src/client/transport.ts imports three of undici's internal modules (its HTTP/1 agent, request
 * and connector, without the package index: ~50 ms of every start-up). They are not a public API, so undici is
 * pinned to an exact version, and an upgrade that moves or changes them stops the build here
 * with what to do, rather than breaking cdata at run time.
 */
export function checkUndiciInternals(root, pinned) {
  const require = createRequire(new URL('package.json', root));
  const installed = require('undici/package.json').version;
  const fail = (what) => {
    throw new Error(
      `undici ${installed}: ${what}. cdata imports undici/lib/dispatcher/agent.js, undici/lib/api/api-request.js and undici/lib/core/connect.js (src/client/transport.ts); ` +
        'after an undici upgrade, find where they moved, update those imports and src/types/undici-internals.d.ts, pin the new version exactly in package.json, ' +
        'and run npm run bench (docs/development.md, "undici").',
    );
  };
  if (!/^\d+\.\d+\.\d+$/.test(pinned)) fail(`package.json must pin undici to an exact version (it says "${pinned}")`);
  if (installed !== pinned) fail(`installed, but package.json pins ${pinned}: run npm ci`);
  let Agent;
  let request;
  let buildConnector;
  try {
    Agent = require('undici/lib/dispatcher/agent.js');
    request = require('undici/lib/api/api-request.js');
    buildConnector = require('undici/lib/core/connect.js');
  } catch (error) {
    fail(`its internal modules cannot be loaded (${error.message})`);
  }
  if (
    typeof Agent !== 'function' ||
    typeof Agent.prototype.dispatch !== 'function' ||
    typeof Agent.prototype.destroy !== 'function'
  ) {
    fail('lib/dispatcher/agent.js no longer exports the Agent class');
  }
  if (typeof request !== 'function' || request.length !== 2)
    fail('lib/api/api-request.js no longer exports request(options, callback)');
  if (typeof buildConnector !== 'function' || buildConnector.length !== 1)
    fail('lib/core/connect.js no longer exports buildConnector(options)');
}
