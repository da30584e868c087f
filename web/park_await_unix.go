//go:build unix

package web

import (
	"errors"
	"net"

	"golang.org/x/sys/unix"
)

// awaitNext waits, without reading, until c's client sends its next request
// (true: the bytes stay in the kernel for net/http), or closes, fails or passes c's
// read deadline (false). Until then the parked goroutine, already there, holds the
// connection rather than net/http's goroutine and 8 KiB of buffers: a client that
// closes after its answer (one probe per connection) never costs them. TLS
// connections are handed back at once (true): tls.Conn may hold decrypted bytes
// the socket no longer shows.
func awaitNext(c net.Conn) bool {
	tc, ok := c.(*net.TCPConn)
	if !ok {
		return true
	}
	raw, err := tc.SyscallConn()
	if err != nil {
		return true
	}
	var n int
	var b [1]byte
	err = raw.Read(func(fd uintptr) bool {
		n, _, err = unix.Recvfrom(int(fd), b[:], unix.MSG_PEEK)
		return !errors.Is(err, unix.EAGAIN)
	})
	return err == nil && n > 0
}
