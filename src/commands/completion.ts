// PLACEHOLDER until issue 7 lands: replaced wholesale by its owner.
import { InternalError } from '../errors.js';
import type { Handler } from './spec.js';

const notBuilt: Handler = async () => {
  throw new InternalError('not built yet (issue 7)');
};

export const completion = notBuilt;
