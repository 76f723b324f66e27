package main

import (
	"fmt"

	"github.com/prometheus/procfs"
	"golang.org/x/sys/unix"
)

// pageOutBinary asks the kernel to reclaim the resident pages of the
// binary's read-only mappings (code, constants, the function tables) with
// madvise(MADV_PAGEOUT), Linux 5.4 and later. The pages are clean copies of
// the file: a page used again is read back, and pages another process maps
// too are left alone by the kernel. The writable data mapping is not
// touched.
func pageOutBinary() error {
	self, err := procfs.Self()
	if err != nil {
		return err
	}
	exe, err := self.Executable()
	if err != nil {
		return err
	}
	maps, err := self.ProcMaps()
	if err != nil {
		return err
	}
	for _, m := range maps {
		if m.Pathname != exe || m.Perms == nil || m.Perms.Write || m.EndAddr <= m.StartAddr {
			continue
		}
		if _, _, errno := unix.Syscall(unix.SYS_MADVISE, m.StartAddr, m.EndAddr-m.StartAddr, unix.MADV_PAGEOUT); errno != 0 {
			return fmt.Errorf("madvise %x-%x: %w", m.StartAddr, m.EndAddr, errno)
		}
	}
	return nil
}
