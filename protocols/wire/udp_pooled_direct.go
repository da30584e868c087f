//go:build (linux && gse_portable) || freebsd || netbsd || dragonfly

package wire

import (
	"syscall"

	"golang.org/x/sys/unix"
)

// sysWrite is write(2) as sysRead is read(2) (rawcall_direct.go).
func sysWrite(fd uintptr, b []byte) (int, syscall.Errno) { return rawIO(unix.SYS_WRITE, fd, b) }
