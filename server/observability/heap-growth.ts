import { setFlagsFromString } from 'node:v8';
import { config } from '@/server/config';

/**
 * Caps how far V8 grows the old generation past what a full collection left alive (issue 19: ≤ 250 MB RSS per
 * process). Left to itself V8 grows it by up to 4× while the process allocates fast, and gives nothing back while
 * load lasts: a PDF worker with 40 MB alive kept 300 MB resident. The flag is read at every collection, so setting
 * it once at start-up takes effect for the whole process (it is not accepted in NODE_OPTIONS). 0 keeps V8's own.
 */
export function limitHeapGrowth(percent = config().HEAP_GROWING_PERCENT): void {
  if (percent > 0) setFlagsFromString(`--heap-growing-percent=${percent}`);
}
