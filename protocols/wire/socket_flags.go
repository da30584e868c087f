//go:build linux || freebsd || netbsd || dragonfly

package wire

import (
	"syscall"

	"golang.org/x/sys/unix"
)

// newSocket opens a non-blocking, close-on-exec UDP socket: one call here, the
// flags given to socket(2) (socket_forklock.go where they cannot be).
func newSocket(family int) (int, error) {
	return syscall.Socket(family, unix.SOCK_DGRAM|unix.SOCK_NONBLOCK|unix.SOCK_CLOEXEC, unix.IPPROTO_UDP)
}
