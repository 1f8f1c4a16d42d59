-- Issue 19: the KSeF throttle in single statements (server/submission/throttle.ts).
-- ksef_throttle_wait_ms: milliseconds until the limiter can take p_slots requests in a row (0 or less: now),
-- counting any Retry-After block. p_max_*: requests allowed per window (NULL: no limit); p_span_*_ms: each
-- window's length. The oldest of the last p_max - p_slots + 1 requests inside a window frees the slot when it leaves.
CREATE OR REPLACE FUNCTION ksef_throttle_wait_ms(
  p_limiter text, p_slots integer,
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
BEGIN
  SELECT blocked_until INTO free_at FROM ksef_throttle_blocks WHERE limiter = p_limiter;
  FOR i IN 1..3 LOOP
    CONTINUE WHEN maxes[i] IS NULL;
    IF maxes[i] < p_slots THEN
      free_at := greatest(free_at, clock_timestamp() + interval '1 hour');
      CONTINUE;
    END IF;
    free_at := greatest(free_at, (
      SELECT at + spans[i] FROM ksef_request_log
      WHERE limiter = p_limiter AND at > clock_timestamp() - spans[i]
      ORDER BY at DESC OFFSET maxes[i] - p_slots LIMIT 1));
  END LOOP;
  RETURN coalesce(ceil(extract(epoch FROM free_at - clock_timestamp()) * 1000), 0);
END $$;
--> statement-breakpoint
-- ksef_admit_request: takes one slot if the limiter has one now (NULL), else says how many ms to wait (nothing
-- logged). One round trip instead of a client transaction's six. Each statement of a VOLATILE plpgsql function
-- takes a fresh snapshot, so the reads after the advisory lock see the request the previous holder logged; the
-- lock is held until the caller's transaction ends.
CREATE OR REPLACE FUNCTION ksef_admit_request(
  p_limiter text,
  p_max_second integer, p_max_minute integer, p_max_hour integer,
  p_span_second_ms integer, p_span_minute_ms integer, p_span_hour_ms integer
) RETURNS double precision LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  wait_ms double precision;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended(p_limiter, 0));
  wait_ms := ksef_throttle_wait_ms(p_limiter, 1, p_max_second, p_max_minute, p_max_hour, p_span_second_ms, p_span_minute_ms, p_span_hour_ms);
  IF wait_ms > 0 THEN
    RETURN wait_ms;
  END IF;
  DELETE FROM ksef_request_log WHERE limiter = p_limiter AND at < clock_timestamp() - interval '2 hours';
  INSERT INTO ksef_request_log (limiter, at) VALUES (p_limiter, clock_timestamp());
  RETURN NULL;
END $$;
