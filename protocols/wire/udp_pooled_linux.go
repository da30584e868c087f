//go:build gse_portable

package wire

import (
	"syscall"
	"unsafe"
)

// disconnect undoes a UDP socket's connect (a connect to AF_UNSPEC). Linux keeps the
// source address the first connect's route chose across later connects, so a socket
// that served a loopback server would send to the next one from 127.0.0.1; undone,
// it also gives back its port, and the next connect binds a fresh random one. Only a
// query of another IP address needs it: the same address takes the same route.
func disconnect(fd uintptr) error {
	var sa syscall.RawSockaddr // Family 0: AF_UNSPEC
	_, _, errno := syscall.RawSyscall(syscall.SYS_CONNECT, fd, uintptr(unsafe.Pointer(&sa)), unsafe.Sizeof(sa))
	if errno != 0 {
		return errno
	}
	return nil
}
