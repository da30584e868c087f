//go:build unix && !linux

package wire

// disconnect: on the BSDs and macOS a connect of a connected UDP socket disconnects
// it first, which also forgets the source address the old route chose (soconnect,
// udp_disconnect), so there is nothing to undo before a query of another address.
func disconnect(uintptr) error { return nil }
