// undici's dispatcher, request and connector modules, imported directly so a command loads only the HTTP/1
// client rather than the package index (fetch, WebSocket, cache, mocks: ~30 ms of start-up).
// The shapes are undici's public ones; the lock file pins the version these paths belong to.
declare module 'undici/lib/dispatcher/agent.js' {
  import { Agent } from 'undici';
  export default Agent;
}

declare module 'undici/lib/api/api-request.js' {
  import type { Dispatcher } from 'undici';
  /** Dispatcher.prototype.request, unbound: call it with the dispatcher as `this`. */
  export default function request(
    this: Dispatcher,
    options: Dispatcher.RequestOptions,
  ): Promise<Dispatcher.ResponseData>;
}

declare module 'undici/lib/core/connect.js' {
  import type { Socket } from 'node:net';
  import type { buildConnector as Connector } from 'undici';
  /** undici's buildConnector. The connector it makes returns the socket it opens (the public type says void). */
  export default function buildConnector(
    options: Connector.BuildOptions,
  ): (options: Connector.Options, callback: Connector.Callback) => Socket;
}
