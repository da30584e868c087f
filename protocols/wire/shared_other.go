//go:build !linux || gse_portable

package wire

import (
	"net/netip"
	"time"
)

// shared is the Linux shared-socket registration (shared_linux.go). Elsewhere every
// query has a connected socket of its own: joinShared never returns one.
type shared struct {
	deadline time.Time
	done     <-chan struct{}
	prompt   bool
}

func joinShared(netip.AddrPort) *shared           { return nil }
func (*shared) write([]byte) error                { panic("wire: no shared sockets on this platform") }
func (*shared) recv() ([]byte, int64, int, error) { panic("wire: no shared sockets on this platform") }
func (*shared) leave()                            {}
