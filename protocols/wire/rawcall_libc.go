//go:build unix && !(linux || freebsd || netbsd || dragonfly)

package wire

import (
	"errors"
	"syscall"
)

// sysRead, sysWrite and newSocket: macOS, OpenBSD and the Solarises take system
// calls through libc only (rawcall_direct.go says what the direct ones save).
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

// newSocket opens a non-blocking, close-on-exec UDP socket. macOS has no flags
// for both at socket(2): no exec may inherit it before close-on-exec is set.
func newSocket(family int) (int, error) {
	syscall.ForkLock.RLock()
	fd, err := syscall.Socket(family, syscall.SOCK_DGRAM, syscall.IPPROTO_UDP)
	if err == nil {
		syscall.CloseOnExec(fd)
	}
	syscall.ForkLock.RUnlock()
	if err != nil {
		return -1, err
	}
	if err := syscall.SetNonblock(fd, true); err != nil {
		syscall.Close(fd)
		return -1, err
	}
	return fd, nil
}
