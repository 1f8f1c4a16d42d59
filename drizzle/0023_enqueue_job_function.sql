-- enqueue() (server/jobs/enqueue.ts) in one call, one enqueuer of a job key at a time until its transaction ends.
-- graphile_worker.remove_job deletes the key's unlocked row, then clears the key of any row left, each statement
-- with its own snapshot: a row another transaction commits between the two (two steps of one seller lane
-- enqueueing its job at once) lost its key and its attempts, a job never run and never deleted. The advisory lock
-- orders such enqueuers; each statement after it sees what the one waited for committed.
create or replace function enqueue_job(
  p_task text, p_payload json, p_run_at timestamptz, p_max_attempts int, p_key text, p_priority int, p_flags text[], p_lane boolean
) returns void language plpgsql volatile as $$
begin
  perform pg_advisory_xact_lock(hashtextextended('graphile_worker job key ' || p_key, 0));
  -- a lane's job that waits, never fetched, due no later, already does this work (registry `lane`)
  if p_lane and exists (
    select 1 from graphile_worker._private_jobs j
    where j.key = p_key and j.locked_at is null and j.attempts = 0 and j.run_at <= coalesce(p_run_at, now())
  ) then
    return;
  end if;
  perform graphile_worker.remove_job(p_key);
  perform graphile_worker.add_job(
    p_task, p_payload, run_at := p_run_at, max_attempts := p_max_attempts, job_key := p_key, priority := p_priority, flags := p_flags
  );
end
$$;
