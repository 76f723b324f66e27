package main

import (
	"log/slog"
	"runtime/debug"
)

// returnStartMemory gives back what starting used and serving does not:
// the heap starting allocated and dropped (the migrations, the catalog's
// parse), which an idle server would otherwise hold until the runtime's
// two-minute GC and its scavenger, and the pages of the binary that the
// start touched (the init of some 900 packages, the runtime's walk of the
// type links), which stay resident, 64 KiB around each fault, until the
// kernel needs the memory. Pages serving needs come back on their first use
// (docs/decisions/0120-a-smaller-server.md,
// docs/decisions/0122-an-idle-server-holds-little.md).
func returnStartMemory(log *slog.Logger) {
	debug.FreeOSMemory()
	if err := pageOutBinary(); err != nil {
		log.Debug("the binary's start pages were kept", "err", err)
	}
}
