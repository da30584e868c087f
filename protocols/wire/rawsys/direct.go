//go:build linux || freebsd || netbsd || dragonfly

package rawsys

import (
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Read is read(2) of b on fd.
func Read(fd uintptr, b []byte) (int, syscall.Errno) { return call(unix.SYS_READ, fd, b, 0) }

// Write is write(2) of b on fd.
func Write(fd uintptr, b []byte) (int, syscall.Errno) { return call(unix.SYS_WRITE, fd, b, 0) }

// Send is send(2) of b on fd with MSG_NOSIGNAL: a peer that left is EPIPE, not a
// signal.
func Send(fd uintptr, b []byte) (int, syscall.Errno) {
	return call(unix.SYS_SENDTO, fd, b, unix.MSG_NOSIGNAL)
}

func call(trap, fd uintptr, b []byte, flags uintptr) (int, syscall.Errno) {
	for {
		n, _, errno := unix.RawSyscall6(trap, fd, uintptr(unsafe.Pointer(unsafe.SliceData(b))), uintptr(len(b)), flags, 0, 0)
		if errno != unix.EINTR {
			return int(n), errno
		}
	}
}
