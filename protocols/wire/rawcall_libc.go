//go:build unix && !(linux || freebsd || netbsd || dragonfly)

package wire

import (
	"errors"
	"syscall"
)

// sysRead and sysWrite: macOS, OpenBSD and the Solarises take system calls
// through libc only (rawcall_direct.go says what the direct ones save).
func sysRead(fd uintptr, b []byte) (int, syscall.Errno)  { return errnoOf(syscall.Read(int(fd), b)) }
func sysWrite(fd uintptr, b []byte) (int, syscall.Errno) { return errnoOf(syscall.Write(int(fd), b)) }

func errnoOf(n int, err error) (int, syscall.Errno) {
	if err == nil {
		return n, 0
	}
	var errno syscall.Errno
	if !errors.As(err, &errno) {
		errno = syscall.EIO
	}
	return 0, errno
}
