import { expect, test } from 'vitest';
import { isRunningUnder, overdueExecutions, runningJobIds, trackExecution } from './in-flight';

test('an execution running past the limit is named once, with its task and age; a finished one never', async () => {
  let release!: () => void;
  const stuck = trackExecution(
    { id: '7', task_identifier: 'ksef_status', locked_by: 'w1' },
    () => new Promise<void>((r) => (release = r)),
    () => 1_000,
  );
  await trackExecution(
    { id: '8', task_identifier: 'pdf_render', locked_by: 'w1' },
    async () => {},
    () => 0,
  );
  expect(runningJobIds()).toEqual(['7']);
  expect(isRunningUnder('w1')).toBe(true);
  expect(overdueExecutions(120_000, 100_000)).toEqual([]);
  expect(overdueExecutions(120_000, 122_000)).toEqual([{ jobId: '7', task: 'ksef_status', seconds: 121 }]);
  expect(overdueExecutions(120_000, 300_000)).toEqual([]);
  release();
  await stuck;
  expect(runningJobIds()).toEqual([]);
  expect(isRunningUnder('w1')).toBe(false);
});
