-- Limits counted across instances (SHARED_LIMITS): fixed-window quotas (partner keys, builds per
-- IP, sign-ins per IP) and open WebSocket connections per partner key. Nothing here is needed by a
-- single instance counting in memory.

-- Requests accepted per bucket ('key:<id>', 'build-ip:<ip>', ...) and fixed window, added to by
-- every instance (in batches of at most its lease). Rows of finished windows are deleted.
CREATE TABLE quota_window (
  bucket text NOT NULL,
  -- unix milliseconds, a multiple of the window length
  window_start bigint NOT NULL,
  window_end timestamptz NOT NULL,
  used bigint NOT NULL,
  PRIMARY KEY (bucket, window_start)
);
CREATE INDEX quota_window_end_idx ON quota_window (window_end);

-- Gateway instances that hold WebSocket connections: alive while their heartbeat is fresh, so the
-- connections of a killed instance stop counting once its heartbeat is too old.
CREATE TABLE limit_instance (
  id uuid PRIMARY KEY,
  heartbeat_at timestamptz NOT NULL
);

-- Open WebSocket connections per partner key on each instance.
CREATE TABLE ws_connection_share (
  key_id text NOT NULL,
  instance_id uuid NOT NULL REFERENCES limit_instance (id) ON DELETE CASCADE,
  connections integer NOT NULL CHECK (connections > 0),
  PRIMARY KEY (key_id, instance_id)
);
CREATE INDEX ws_connection_share_instance_idx ON ws_connection_share (instance_id);
