
worker-1"€
K
memory.coalescingcopy"0memory.coalescing/copy?block_size=256&n=16777216" ¢&ú|”?6wô¿\‹?ìNwžxÎ?Öÿ9Ì—?ª€¥—É€Êµî