//go:build tools && linux

package main

import (
	"net"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// stampArrivals asks the kernel to stamp each datagram's arrival on pc. A delayed
// reply's wait then counts from when the request reached the server's socket, not
// from when a fleet goroutine got a CPU to read it: on a busy machine the request
// waits in the socket first, and a prober sees that wait as the server's latency.
func stampArrivals(pc *net.UDPConn) bool {
	rc, err := pc.SyscallConn()
	if err != nil {
		return false
	}
	var serr error
	if err := rc.Control(func(fd uintptr) {
		serr = unix.SetsockoptInt(int(fd), unix.SOL_SOCKET, unix.SO_TIMESTAMPNS, 1)
	}); err != nil || serr != nil {
		return false
	}
	return true
}

// oobSize fits one SCM_TIMESTAMPNS control message.
const oobSize = 32

// arrivalTime reads the SCM_TIMESTAMPNS stamp from a datagram's control data.
func arrivalTime(oob []byte) (time.Time, bool) {
	if len(oob) < unix.CmsgSpace(int(unsafe.Sizeof(unix.Timespec{}))) {
		return time.Time{}, false
	}
	h := (*unix.Cmsghdr)(unsafe.Pointer(&oob[0]))
	if h.Level != unix.SOL_SOCKET || h.Type != unix.SCM_TIMESTAMPNS {
		return time.Time{}, false
	}
	ts := (*unix.Timespec)(unsafe.Pointer(&oob[unix.CmsgLen(0)]))
	return time.Unix(ts.Unix()), true
}
