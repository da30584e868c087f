//go:build !unix && !windows

package wire

import "net"

// reportICMP: as on Unix, a connected UDP socket reports an ICMP port
// unreachable on the next read as ECONNREFUSED, with nothing to turn on.
func reportICMP(*net.UDPConn) {}

func refusedErr(err error) error { return err }
