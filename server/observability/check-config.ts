import { configProblems, type ConfigKey } from '@/server/config';
import { reportFailure } from './failures';

/**
 * A process's first step: a bad environment is one error line (config_invalid) naming each variable and the rule it
 * breaks, and false, so that the process exits before it runs on half a configuration.
 */
export function checkConfigAtStart(processName: 'web' | 'worker' | 'migrate', required: readonly ConfigKey[] = []): boolean {
  const problems = configProblems(required);
  if (problems.length) reportFailure('config_invalid', { process: processName, problems });
  return problems.length === 0;
}
