// --query, declared once: every command that prints the API's data takes it (the endpoint
// commands; any later command over the same data includes these options too).
import { text } from '../../core/option.js';

export const QUERY_OPTIONS = {
  query: text('--query <expr>', "JMESPath expression over the API's JSON, applied before formatting (docs/query.md)"),
};
