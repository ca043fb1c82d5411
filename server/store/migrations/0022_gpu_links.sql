-- 0022 (issue 29 item 4): the links between a node's GPUs as GPU health evidence
-- (server/gpu_health/link_check.h, docs/gpu_health.md "GPU interconnect"). Every run of a
-- multi-GPU host records how each pair of the process's GPUs is joined (RunEnvironment.gpu_links,
-- from NVML); a pair seen with fewer NVLinks than before, or fallen back to PCIe, is evidence
-- before any timing moves. Judged once per run, when the health read first summarises it.

-- The best link each pair of GPUs was seen with (most NVLinks; without NVLink, the nearest PCIe
-- path), by any run of either GPU since the newer of their REPAIRED marks (a repair deletes the
-- GPU's pairs: the next run sets them again). lo_uuid < hi_uuid.
CREATE TABLE gpu_pair_link (
  lo_uuid     text NOT NULL,
  hi_uuid     text NOT NULL CHECK (lo_uuid < hi_uuid),
  path        text NOT NULL,               -- nvidia-smi topo -m's word: 'NV18', 'PIX' .. 'SYS'
  nvlinks     integer NOT NULL CHECK (nvlinks >= 0),
  pcie_rank   integer NOT NULL,            -- without NVLink: PIX 1 .. SYS 5, 0 unknown
  seen_run_id bigint NOT NULL,             -- the first run seen with it (no foreign key: retention may drop it)
  PRIMARY KEY (lo_uuid, hi_uuid)
);

-- A summarised run's pairs with its GPU in them that it saw worse than the pair's best.
CREATE TABLE gpu_health_link_loss (
  run_id            bigint NOT NULL REFERENCES gpu_health_run (run_id) ON DELETE CASCADE,
  peer_uuid         text NOT NULL,
  gpu_index         integer NOT NULL,      -- the run's GPU, CUDA ordinal of its process
  peer_index        integer NOT NULL,
  path              text NOT NULL,
  nvlinks           integer NOT NULL,
  reference_path    text NOT NULL,
  reference_nvlinks integer NOT NULL,
  PRIMARY KEY (run_id, peer_uuid)
);

-- Pairs with the run's GPU in them that its environment recorded (0: one GPU, or NVML absent;
-- also every run summarised before this migration).
ALTER TABLE gpu_health_run ADD COLUMN links_checked integer NOT NULL DEFAULT 0;
