import { configProblems, printConfigProblems, type ConfigKey } from '@/server/config';
import { reportFailure } from './failures';

/**
 * A service process's first step: a bad environment is one stderr line per variable for the person starting it, and
 * one error line (config_invalid) for the log pipeline; false, so that the process exits before it runs on half a
 * configuration.
 */
export function checkProcessConfig(processName: 'web' | 'worker' | 'migrate', required: readonly ConfigKey[] = []): boolean {
  const problems = configProblems(process.env, required);
  if (problems.length === 0) return true;
  printConfigProblems(problems);
  reportFailure('config_invalid', { process: processName, problems });
  return false;
}
