// `cdata help [COMMAND...]` and `cdata version`.
import { VERSION } from '../../core/version.js';
import type { Handler } from '../../command-kit/command.js';
import type { HELP_ARGS } from './command.js';

export const help: Handler<{}, typeof HELP_ARGS> = async (context) => context.showHelp(context.args[0]);

export const version: Handler = async (context) => {
  context.io.stdout.write(`${VERSION}\n`);
};
