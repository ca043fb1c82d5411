
worker-1"€
K
memory.coalesc`ngcopy"0m.mory.coalescing/copy?block_size=namen=16777214" ¢&ú|”?6wô¿\‹?ìNwžxÎ?Öÿ9Ì—?ª€¥=—€ÉÊµî