-- 0022 (issue 29 item 4): the links between a node's GPUs as GPU health evidence
-- (server/gpu_health/link_check.h, pair_check.h, docs/gpu_health.md "GPU interconnect"). Every
-- run of a multi-GPU host records how each pair of the process's GPUs is joined
-- (RunEnvironment.gpu_links, from NVML); a pair seen with fewer NVLinks than before, or fallen
-- back to PCIe, is evidence before any timing moves; a node run's pair slower than the node's
-- other pairs of the same path is evidence too. Judged once per run, when the health read first
-- summarises it.

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
-- also every run summarised before this migration). A node run (node-scoped families only: peer
-- copies, peer reads, collectives) is not one of its GPU's own runs: the verdict's sequence and
-- nights leave it out, and what it finds about pairs counts for both GPUs of each pair.
ALTER TABLE gpu_health_run ADD COLUMN links_checked integer NOT NULL DEFAULT 0,
  ADD COLUMN node_run boolean NOT NULL DEFAULT false;

-- A node run's pairs slower than the node's other pairs of the same path on one bandwidth case
-- (server/gpu_health/pair_check.h). Indices are CUDA ordinals of the node run's process.
CREATE TABLE gpu_health_pair_slow (
  run_id         bigint NOT NULL REFERENCES gpu_health_run (run_id) ON DELETE CASCADE,
  case_canonical text NOT NULL,
  family         text NOT NULL,
  src_uuid       text NOT NULL,
  dst_uuid       text NOT NULL,
  src_index      integer NOT NULL,
  dst_index      integer NOT NULL,
  path           text NOT NULL,
  change         double precision NOT NULL,   -- its median / the other pairs' median - 1
  z              double precision NOT NULL,
  peers          integer NOT NULL,            -- other pairs compared with
  PRIMARY KEY (run_id, case_canonical)
);
CREATE INDEX gpu_health_pair_slow_src_idx ON gpu_health_pair_slow (src_uuid);
CREATE INDEX gpu_health_pair_slow_dst_idx ON gpu_health_pair_slow (dst_uuid);
