// PLACEHOLDER until issue 6 lands: replaced wholesale by its owner.
import { InternalError } from '../errors.js';
import type { Handler } from './spec.js';

const notBuilt: Handler = async () => {
  throw new InternalError('not built yet (issue 6)');
};

export const verify = notBuilt;
export const listen = notBuilt;
export const ping = notBuilt;
export const check = notBuilt;
