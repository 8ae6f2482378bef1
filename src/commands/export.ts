// PLACEHOLDER until issue 5 lands: replaced wholesale by its owner.
import { InternalError } from '../errors.js';
import type { Handler } from './spec.js';

const notBuilt: Handler = async () => {
  throw new InternalError('not built yet (issue 5)');
};

export const exportLists = notBuilt;
