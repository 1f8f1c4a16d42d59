import { expect, test } from 'vitest';
import type { TaskList } from 'graphile-worker';
import { selectTasks } from './task-list';

const all: TaskList = { a: async () => {}, b: async () => {}, pdf_render: async () => {} };

test('WORKER_TASKS picks, excludes, or keeps every task', () => {
  expect(Object.keys(selectTasks(all, undefined))).toEqual(['a', 'b', 'pdf_render']);
  expect(Object.keys(selectTasks(all, 'pdf_render'))).toEqual(['pdf_render']);
  expect(Object.keys(selectTasks(all, '-pdf_render'))).toEqual(['a', 'b']);
  expect(() => selectTasks(all, 'nope')).toThrow(/unknown tasks: nope/);
});
