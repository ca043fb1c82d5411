-- 0013: a measurement row stays in one heap tuple. With 100 samples a row is ~4.5 KB (five sample
-- arrays, ~3 KB of them, plus the binary document); PostgreSQL's default toast_tuple_target
-- (2032 bytes) made every insert try pglz on the sample arrays (random doubles: it gives up) and
-- then move two or three of them to the TOAST table, each a heap insert and a TOAST-index insert
-- of its own. Rows up to 8160 bytes (about 250 samples) now stay inline, uncompressed, which is
-- what they were anyway; larger ones are still toasted. New rows only; nothing is rewritten.
-- Measured with bench/bench_server_load --scenario ingest: docs/results/server_load.md.
ALTER TABLE measurement SET (toast_tuple_target = 8160);
