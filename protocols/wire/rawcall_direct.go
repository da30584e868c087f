//go:build linux || freebsd || netbsd || dragonfly

package wire

import (
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// sysRead is read(2) of a non-blocking socket, called without marking the
// goroutine's P as in a system call: the first such mark after a moment with every
// P idle wakes the runtime's sysmon, which then polls for a millisecond and more
// (web/fast_io_direct.go measured a tenth of a busy exporter's CPU). A non-blocking
// call returns at once, so nothing is lost by keeping the P. These kernels take
// system calls directly; the others go through libc (rawcall_libc.go).
func sysRead(fd uintptr, b []byte) (int, syscall.Errno) { return rawIO(unix.SYS_READ, fd, b) }

// rawIO is the read or write (trap) of b on fd, made directly.
func rawIO(trap, fd uintptr, b []byte) (int, syscall.Errno) {
	n, _, errno := unix.RawSyscall(trap, fd, uintptr(unsafe.Pointer(unsafe.SliceData(b))), uintptr(len(b)))
	return int(n), errno
}

// newSocket opens a non-blocking, close-on-exec UDP socket: one call here.
func newSocket(family int) (int, error) {
	return syscall.Socket(family, unix.SOCK_DGRAM|unix.SOCK_NONBLOCK|unix.SOCK_CLOEXEC, unix.IPPROTO_UDP)
}
