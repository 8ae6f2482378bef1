// Bench floor: undici alone, one GET (get.mjs), bundled as dist/ is.
import { get } from './get.mjs';

void get();
