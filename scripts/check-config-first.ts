import { checkConfigAtStart } from '@/server/config';

/**
 * Imported first by the stack runner and the CLI: some of their modules read the configuration as they load, so
 * the check must run before those are evaluated (ES modules evaluate imports in order).
 */
checkConfigAtStart();
