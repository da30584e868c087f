//go:build (linux && gse_portable) || freebsd || netbsd || dragonfly

package wire

import (
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// sysWrite is write(2) as sysRead is read(2) (rawcall_direct.go).
func sysWrite(fd uintptr, b []byte) (int, syscall.Errno) {
	n, _, errno := unix.RawSyscall(unix.SYS_WRITE, fd, uintptr(unsafe.Pointer(unsafe.SliceData(b))), uintptr(len(b)))
	return int(n), errno
}
