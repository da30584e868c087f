//go:build unix && !(linux || freebsd || netbsd || dragonfly)

package rawsys

import (
	"errors"
	"syscall"
)

// Read is read(2) of b on fd, through libc.
func Read(fd uintptr, b []byte) (int, syscall.Errno) { return call(syscall.Read, fd, b) }

// Write is write(2) of b on fd, through libc.
func Write(fd uintptr, b []byte) (int, syscall.Errno) { return call(syscall.Write, fd, b) }

func call(f func(int, []byte) (int, error), fd uintptr, b []byte) (int, syscall.Errno) {
	for {
		n, err := f(int(fd), b)
		if err == nil {
			return n, 0
		}
		var errno syscall.Errno
		if !errors.As(err, &errno) {
			return 0, syscall.EIO
		}
		if errno != syscall.EINTR {
			return 0, errno
		}
	}
}
