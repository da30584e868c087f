//go:build !unix

package web

import "net"

// awaitNext hands the connection back at once where MSG_PEEK is not at hand.
func awaitNext(net.Conn) bool { return true }
