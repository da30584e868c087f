//go:build unix && !(linux || freebsd || netbsd || dragonfly)

package wire

import "syscall"

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
