package main

import (
	"errors"
	"testing"

	"github.com/prometheus/procfs"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// fileResident is how much of the process's resident set is pages of files
// (its binary, the C library), in bytes.
func fileResident(t *testing.T) uint64 {
	t.Helper()
	self, err := procfs.Self()
	require.NoError(t, err)
	r, err := self.ProcSMapsRollup()
	require.NoError(t, err)
	return r.Rss - r.Anonymous
}

// Paging the binary out gives back the pages the start touched: the
// process's file-backed resident set falls, and the process goes on
// running the code it pages back in. Not parallel: it pages out the code
// every test of this binary runs.
func TestPageOutBinaryReturnsTheStartPages(t *testing.T) {
	before := fileResident(t)
	err := pageOutBinary()
	if errors.Is(err, unix.EINVAL) {
		t.Skip("this kernel has no MADV_PAGEOUT (Linux 5.4)")
	}
	require.NoError(t, err)
	after := fileResident(t)
	t.Logf("file-backed resident: %d KiB before, %d KiB after", before>>10, after>>10)
	require.Less(t, after, before/2, "most of the binary's pages went back")
}
