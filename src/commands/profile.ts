// PLACEHOLDER until issue 4 lands: replaced wholesale by its owner.
import { InternalError } from '../errors.js';
import type { Handler } from './spec.js';

const notBuilt: Handler = async () => {
  throw new InternalError('not built yet (issue 4)');
};

export const list = notBuilt;
export const use = notBuilt;
export const remove = notBuilt;
