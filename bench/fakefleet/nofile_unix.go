//go:build tools && unix

package main

import (
	"fmt"
	"syscall"
)

// nofile is the open-file limit, printed so a run's results say what it had.
func nofile() string {
	var l syscall.Rlimit
	if syscall.Getrlimit(syscall.RLIMIT_NOFILE, &l) != nil {
		return "unknown"
	}
	return fmt.Sprint(l.Cur)
}
