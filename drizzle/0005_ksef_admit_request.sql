-- Issue 19: the KSeF throttle's admission in one round trip (server/submission/throttle.ts, admitKsefRequest).
-- Each statement of a VOLATILE plpgsql function takes a fresh snapshot, so the reads after the advisory lock see
-- the request the previous holder logged; the lock is held until the caller's transaction ends.
-- Returns the milliseconds to wait (nothing logged), or NULL when the request was admitted and logged.
-- p_max_*: requests allowed per window (NULL: no limit, 0 or less: none); p_span_*_ms: each window's length.
CREATE OR REPLACE FUNCTION ksef_admit_request(
  p_limiter text,
  p_max_second integer, p_max_minute integer, p_max_hour integer,
  p_span_second_ms integer, p_span_minute_ms integer, p_span_hour_ms integer
) RETURNS double precision LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  maxes integer[] := ARRAY[p_max_second, p_max_minute, p_max_hour];
  spans interval[] := ARRAY[
    make_interval(secs => p_span_second_ms / 1000.0),
    make_interval(secs => p_span_minute_ms / 1000.0),
    make_interval(secs => p_span_hour_ms / 1000.0)];
  free_at timestamptz;
  wait_ms double precision;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended(p_limiter, 0));
  SELECT blocked_until INTO free_at FROM ksef_throttle_blocks WHERE limiter = p_limiter;
  FOR i IN 1..3 LOOP
    CONTINUE WHEN maxes[i] IS NULL;
    IF maxes[i] <= 0 THEN
      free_at := greatest(free_at, clock_timestamp() + interval '1 hour');
      CONTINUE;
    END IF;
    -- the oldest of the last maxes[i] requests inside the window: the window frees a slot when it leaves
    free_at := greatest(free_at, (
      SELECT at + spans[i] FROM ksef_request_log
      WHERE limiter = p_limiter AND at > clock_timestamp() - spans[i]
      ORDER BY at DESC OFFSET maxes[i] - 1 LIMIT 1));
  END LOOP;
  wait_ms := ceil(extract(epoch FROM free_at - clock_timestamp()) * 1000);
  IF wait_ms > 0 THEN
    RETURN wait_ms;
  END IF;
  DELETE FROM ksef_request_log WHERE limiter = p_limiter AND at < clock_timestamp() - interval '2 hours';
  INSERT INTO ksef_request_log (limiter, at) VALUES (p_limiter, clock_timestamp());
  RETURN NULL;
END $$;
