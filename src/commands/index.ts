// Every command, in the order help lists them: the endpoint commands (one per entry of the
// endpoint table), then the others. Each is declared in registry/ as data; its handler module
// loads only when it runs.
import type { AnyCommand } from '../spec/command.js';
import { AUTH_COMMAND } from './registry/auth.js';
import { CHANGES_COMMAND } from './registry/changes.js';
import { COMPLETION_COMMAND } from './registry/completion.js';
import { CONFIG_COMMAND } from './registry/config.js';
import { EXPORT_COMMAND } from './registry/export.js';
import { helpCommand, VERSION_COMMAND } from './registry/help.js';
import { PROFILE_COMMAND } from './registry/profile.js';
import { RESOURCE_COMMANDS } from './registry/resource.js';
import { SANDBOX_COMMAND } from './registry/sandbox.js';
import { WEBHOOK_COMMAND } from './registry/webhook.js';

const NAMED: readonly AnyCommand[] = [
  ...RESOURCE_COMMANDS,
  EXPORT_COMMAND,
  CHANGES_COMMAND,
  AUTH_COMMAND,
  PROFILE_COMMAND,
  CONFIG_COMMAND,
  WEBHOOK_COMMAND,
  SANDBOX_COMMAND,
  COMPLETION_COMMAND,
];

export const COMMANDS: readonly AnyCommand[] = [...NAMED, helpCommand(NAMED), VERSION_COMMAND];
