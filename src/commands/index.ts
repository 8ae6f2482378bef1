// Every command, in the order help lists them: the endpoint commands (one per entry of the
// endpoint table), then the others. Each is declared as data in its folder's command.ts; its
// handler module loads only when it runs (handlers.ts).
import type { AnyCommand } from '../command-kit/command.js';
import { AUTH_COMMAND } from './auth/command.js';
import { CHANGES_COMMAND } from './changes/command.js';
import { COMPLETION_COMMAND } from './completion/command.js';
import { CONFIG_COMMAND } from './config/command.js';
import { EXPORT_COMMAND } from './export/command.js';
import { HELP_COMMAND, VERSION_COMMAND } from './help/command.js';
import { PROFILE_COMMAND } from './profile/command.js';
import { RESOURCE_COMMANDS } from './resource/command.js';
import { SANDBOX_COMMAND } from './sandbox/command.js';
import { WEBHOOK_COMMAND } from './webhook/command.js';

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

export const COMMANDS: readonly AnyCommand[] = [...NAMED, HELP_COMMAND, VERSION_COMMAND];
