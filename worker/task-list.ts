import type { TaskList } from 'graphile-worker';
import { maintenance } from './tasks/maintenance';

/** The one explicit list of tasks (DESIGN.md: plain identifiers). */
export const taskList: TaskList = {
  maintenance,
};

export const CRONTAB = '0 * * * * maintenance ?max=3';
