// Bench floor: commander parsing one subcommand with its options, then the undici GET of
// get.mjs. The least the user's stack (commander + undici) costs for `tenders -o json`.
import { Command } from 'commander';
import { get } from './get.mjs';

const program = new Command('cdata').option('-o, --output <format>').exitOverride();
program.command('tenders').option('--tier <tier>').option('-l, --limit <n>').action(get);
void program.parseAsync(process.argv.slice(2), { from: 'user' });
