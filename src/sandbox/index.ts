// The sandbox as a library (dist/sandbox.js): integrators' tests start it, pick a demo key and
// inject faults, as this project's own tests and benchmarks do.
export { startSandbox, type Sandbox, type SandboxOptions, type SandboxRequest } from './server.js';
export { DEMO_KEYS, demoKey, type DemoKey } from './keys.js';
export { FAULTS, type Fault } from './faults.js';
// Signing and verifying webhook deliveries with the code cdata itself uses.
export { sign, verify, SIGNATURE_HEADER, type Verdict, type WebhookEvent } from '../webhook/signature.js';
