-- 0001: the design's data model (design.md "Data model"). Applied in one transaction.

-- Glob ("*" any run, "?" one character) to a LIKE pattern with "\" as the escape character, so
-- "%" and "_" in a selector match themselves.
CREATE FUNCTION ww_glob_to_like(pattern text) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
    SELECT replace(replace(replace(replace(replace(pattern,
      '\', '\\'), '%', '\%'), '_', '\_'), '*', '%'), '?', '_')
  $$;

CREATE TABLE worker (
  id            text PRIMARY KEY,
  hostname      text NOT NULL,
  labels        jsonb NOT NULL DEFAULT '{}',
  version       text NOT NULL DEFAULT '',
  families      text[] NOT NULL DEFAULT '{}',
  state         text NOT NULL DEFAULT 'ONLINE' CHECK (state IN ('ONLINE', 'OFFLINE')),
  registered_at timestamptz NOT NULL DEFAULT now(),
  last_seen     timestamptz NOT NULL DEFAULT now()
);

-- One GPU, as its worker last registered it. The full proto is kept in `info`.
CREATE TABLE device (
  uuid                     text PRIMARY KEY,
  worker_id                text REFERENCES worker (id) ON DELETE SET NULL,
  name                     text NOT NULL,
  compute_capability_major integer NOT NULL DEFAULT 0,
  compute_capability_minor integer NOT NULL DEFAULT 0,
  sm_count                 integer NOT NULL DEFAULT 0,
  memory_bytes             bigint NOT NULL DEFAULT 0,
  l2_bytes                 bigint NOT NULL DEFAULT 0,
  memory_bus_width_bits    integer NOT NULL DEFAULT 0,
  theoretical_bandwidth_bytes_per_second double precision NOT NULL DEFAULT 0,
  max_sm_clock_mhz         integer NOT NULL DEFAULT 0,
  max_memory_clock_mhz     integer NOT NULL DEFAULT 0,
  pci_bus_id               text NOT NULL DEFAULT '',
  device_index             integer NOT NULL DEFAULT 0,
  info                     jsonb NOT NULL,
  first_seen               timestamptz NOT NULL DEFAULT now(),
  last_seen                timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX device_worker_idx ON device (worker_id);
CREATE INDEX device_name_idx ON device (name);

CREATE TABLE job (
  id                     bigserial PRIMARY KEY,
  spec                   jsonb NOT NULL,          -- JobSpec, protobuf JSON mapping
  state                  text NOT NULL
                         CHECK (state IN ('QUEUED', 'RUNNING', 'SUCCEEDED', 'FAILED', 'CANCELLED')),
  priority               integer NOT NULL DEFAULT 0,
  attempts               integer NOT NULL DEFAULT 0,
  max_attempts           integer NOT NULL CHECK (max_attempts > 0),
  lease_owner            text,
  lease_expiry           timestamptz,
  current_run_id         bigint,
  device_uuid            text NOT NULL DEFAULT '',
  points_done            bigint NOT NULL DEFAULT 0,
  points_total           bigint NOT NULL DEFAULT 0,
  current_case           text NOT NULL DEFAULT '',
  cancel_requested       boolean NOT NULL DEFAULT false,
  created_at             timestamptz NOT NULL DEFAULT now(),
  started_at             timestamptz,
  finished_at            timestamptz,
  error                  text NOT NULL DEFAULT '',
  submitted_by           text NOT NULL DEFAULT '',
  labels                 jsonb NOT NULL DEFAULT '{}',   -- spec.labels, for @> filters
  selector_gpu_model     text NOT NULL DEFAULT '',      -- spec.selector, for claiming
  selector_gpu_uuid      text NOT NULL DEFAULT '',
  selector_worker_labels jsonb NOT NULL DEFAULT '{}',
  CHECK ((state = 'RUNNING') = (lease_owner IS NOT NULL))
);
-- Claiming: queued jobs by priority desc, then id.
CREATE INDEX job_queue_idx ON job (priority DESC, id) WHERE state = 'QUEUED';
-- Lease reaping.
CREATE INDEX job_lease_expiry_idx ON job (lease_expiry) WHERE state = 'RUNNING';
CREATE INDEX job_lease_owner_idx ON job (lease_owner) WHERE lease_owner IS NOT NULL;
-- Listing: by state newest first, by creation time, by labels.
CREATE INDEX job_state_id_idx ON job (state, id DESC);
CREATE INDEX job_created_at_idx ON job (created_at);
CREATE INDEX job_labels_idx ON job USING gin (labels jsonb_path_ops);
CREATE INDEX job_selector_gpu_model_idx ON job (selector_gpu_model);

-- One execution of a job on one device (job_id NULL for uploaded local runs).
CREATE TABLE run (
  id                      bigserial PRIMARY KEY,
  job_id                  bigint REFERENCES job (id) ON DELETE CASCADE,
  worker_id               text NOT NULL DEFAULT '',
  device_uuid             text NOT NULL DEFAULT '',
  device_name             text NOT NULL DEFAULT '',
  state                   text NOT NULL
                          CHECK (state IN ('RUNNING', 'SUCCEEDED', 'FAILED', 'CANCELLED')),
  error                   text NOT NULL DEFAULT '',
  environment             jsonb,                    -- RunEnvironment, protobuf JSON mapping
  hostname                text NOT NULL DEFAULT '',
  driver_version          text NOT NULL DEFAULT '',
  cuda_driver_version     integer NOT NULL DEFAULT 0,
  cuda_runtime_version    integer NOT NULL DEFAULT 0,
  worker_version          text NOT NULL DEFAULT '',
  suite_version           text NOT NULL DEFAULT '',
  sm_clock_mhz_start      integer NOT NULL DEFAULT 0,
  memory_clock_mhz_start  integer NOT NULL DEFAULT 0,
  temperature_c_start     double precision NOT NULL DEFAULT 0,
  power_w_start           double precision NOT NULL DEFAULT 0,
  temperature_c_end       double precision NOT NULL DEFAULT 0,
  power_w_end             double precision NOT NULL DEFAULT 0,
  clock_source            text NOT NULL DEFAULT '',
  labels                  jsonb NOT NULL DEFAULT '{}',
  started_at              timestamptz NOT NULL DEFAULT now(),
  finished_at             timestamptz
);
CREATE INDEX run_job_idx ON run (job_id);
CREATE INDEX run_device_uuid_idx ON run (device_uuid, started_at);
CREATE INDEX run_device_name_idx ON run (device_name, started_at);
CREATE INDEX run_labels_idx ON run USING gin (labels jsonb_path_ops);
ALTER TABLE job ADD FOREIGN KEY (current_run_id) REFERENCES run (id) ON DELETE SET NULL;

-- What one case point produced on one device in one run. `doc` keeps the full Measurement proto.
CREATE TABLE measurement (
  id                      bigserial PRIMARY KEY,
  run_id                  bigint NOT NULL REFERENCES run (id) ON DELETE CASCADE,
  case_canonical          text NOT NULL,
  family                  text NOT NULL,
  variant                 text NOT NULL,
  params                  jsonb NOT NULL DEFAULT '{}',
  series_id               text NOT NULL,            -- case canonical + '@' + device model
  kernel_name             text NOT NULL DEFAULT '',
  status                  text NOT NULL CHECK (status IN ('UNSPECIFIED', 'OK', 'FAILED', 'SKIPPED')),
  error                   text NOT NULL DEFAULT '',
  samples_seconds         double precision[] NOT NULL DEFAULT '{}',
  sample_sm_clock_mhz     double precision[] NOT NULL DEFAULT '{}',
  sample_throttled        boolean[] NOT NULL DEFAULT '{}',
  throttled_fraction      double precision NOT NULL DEFAULT 0,
  median_seconds          double precision NOT NULL DEFAULT 0,
  mean_seconds            double precision NOT NULL DEFAULT 0,
  min_seconds             double precision NOT NULL DEFAULT 0,
  max_seconds             double precision NOT NULL DEFAULT 0,
  stddev_seconds          double precision NOT NULL DEFAULT 0,
  p10_seconds             double precision NOT NULL DEFAULT 0,
  p90_seconds             double precision NOT NULL DEFAULT 0,
  rel_stderr              double precision NOT NULL DEFAULT 0,
  median_sm_clock_mhz     double precision NOT NULL DEFAULT 0,
  bytes                   double precision NOT NULL DEFAULT 0,
  flops                   double precision NOT NULL DEFAULT 0,
  gbps                    double precision NOT NULL DEFAULT 0,
  gflops                  double precision NOT NULL DEFAULT 0,
  pct_of_peak_bandwidth   double precision NOT NULL DEFAULT 0,
  block_size              integer NOT NULL DEFAULT 0,
  grid_size               bigint NOT NULL DEFAULT 0,
  registers_per_thread    integer NOT NULL DEFAULT 0,
  static_shared_bytes     bigint NOT NULL DEFAULT 0,
  dynamic_shared_bytes    bigint NOT NULL DEFAULT 0,
  local_bytes_per_thread  bigint NOT NULL DEFAULT 0,
  max_threads_per_block   integer NOT NULL DEFAULT 0,
  active_blocks_per_sm    integer NOT NULL DEFAULT 0,
  theoretical_occupancy   double precision NOT NULL DEFAULT 0,
  occupancy_limiter       text NOT NULL DEFAULT 'UNSPECIFIED',
  achieved_occupancy      double precision,          -- NULL when not profiled
  counters                jsonb NOT NULL DEFAULT '{}',
  counters_note           text NOT NULL DEFAULT '',
  verified                boolean NOT NULL DEFAULT false,
  max_error               double precision NOT NULL DEFAULT 0,
  l2_flushed              boolean NOT NULL DEFAULT false,
  stop_reason             text NOT NULL DEFAULT '',
  measured_at             timestamptz,
  doc                     jsonb NOT NULL,
  UNIQUE (run_id, case_canonical)
);
CREATE INDEX measurement_series_idx ON measurement (series_id, run_id);
CREATE INDEX measurement_family_idx ON measurement (family, variant);

CREATE TABLE regression (
  id                      bigserial PRIMARY KEY,
  series_id               text NOT NULL,
  case_canonical          text NOT NULL,
  family                  text NOT NULL,
  gpu_model               text NOT NULL,
  run_id                  bigint NOT NULL REFERENCES run (id) ON DELETE CASCADE,
  baseline_run_ids        bigint[] NOT NULL DEFAULT '{}',
  baseline_median_seconds double precision NOT NULL,
  new_median_seconds      double precision NOT NULL,
  change                  double precision NOT NULL,
  p_value                 double precision NOT NULL DEFAULT 1,
  method                  text NOT NULL,
  state                   text NOT NULL DEFAULT 'OPEN'
                          CHECK (state IN ('OPEN', 'ACKNOWLEDGED', 'DISMISSED', 'FIXED')),
  note                    text NOT NULL DEFAULT '',
  confirmation_run_id     bigint REFERENCES run (id) ON DELETE SET NULL,
  clock_explained         boolean NOT NULL DEFAULT false,
  detected_at             timestamptz NOT NULL DEFAULT now(),
  updated_at              timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX regression_state_idx ON regression (state, gpu_model, family);
CREATE INDEX regression_series_idx ON regression (series_id, detected_at);

CREATE TABLE schedule (
  id            bigserial PRIMARY KEY,
  name          text NOT NULL UNIQUE,
  cron          text NOT NULL,
  time_zone     text NOT NULL DEFAULT 'UTC',
  job_template  jsonb NOT NULL,                     -- JobSpec, protobuf JSON mapping
  selector      jsonb NOT NULL DEFAULT '{}',        -- DeviceSelector, protobuf JSON mapping
  enabled       boolean NOT NULL DEFAULT true,
  last_fire     timestamptz,
  next_fire     timestamptz,
  created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX schedule_next_fire_idx ON schedule (next_fire) WHERE enabled;
