//go:build !linux

package main

import "errors"

// pageOutBinary leaves the binary's pages alone: MADV_PAGEOUT is Linux's.
func pageOutBinary() error { return errors.New("paging out is Linux's") }
