package wire

import (
	"errors"
	"fmt"
	"net"
	"syscall"
	"unsafe"
)

// reportICMP turns back on what package net turns off for every UDP socket on
// Windows (SIO_UDP_CONNRESET): without it an ICMP port unreachable is dropped and a
// probe of a closed port waits for its deadline instead of failing as refused.
// Best effort: where the ioctl fails, such probes only end later, as a timeout.
func reportICMP(c *net.UDPConn) {
	raw, err := c.SyscallConn()
	if err != nil {
		return
	}
	raw.Control(func(fd uintptr) {
		flag, ret := uint32(1), uint32(0)
		syscall.WSAIoctl(syscall.Handle(fd), syscall.SIO_UDP_CONNRESET,
			(*byte)(unsafe.Pointer(&flag)), uint32(unsafe.Sizeof(flag)), nil, 0, &ret, nil, 0)
	})
}

// refusedErr: Windows reports the ICMP port unreachable on a UDP read as
// WSAECONNRESET; on a UDP socket there is no connection to reset, so it means
// refused.
func refusedErr(err error) error {
	if errors.Is(err, syscall.WSAECONNRESET) {
		return fmt.Errorf("%w: %v", ErrRefused, err)
	}
	return err
}
