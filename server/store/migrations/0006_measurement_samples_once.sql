-- 0006: each sample array of a measurement is stored once, in a column of its own; `doc` keeps
-- the rest of the Measurement proto (issue 14). Before, `doc` repeated every sample array.
ALTER TABLE measurement
  ADD COLUMN sample_kernel_seconds double precision[] NOT NULL DEFAULT '{}',
  ADD COLUMN sample_group integer[] NOT NULL DEFAULT '{}';
UPDATE measurement SET
  sample_kernel_seconds = ARRAY(
    SELECT e::double precision
    FROM jsonb_array_elements_text(coalesce(doc->'sample_kernel_seconds', '[]')) WITH ORDINALITY
      AS t(e, i) ORDER BY i),
  sample_group = ARRAY(
    SELECT e::integer
    FROM jsonb_array_elements_text(coalesce(doc->'sample_group', '[]')) WITH ORDINALITY
      AS t(e, i) ORDER BY i),
  doc = doc - 'samples_seconds' - 'sample_sm_clock_mhz' - 'sample_throttled'
            - 'sample_kernel_seconds' - 'sample_group';
