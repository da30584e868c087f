package prototest

import (
	"bytes"
	"net/netip"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// Answering is a UDP server for a one-request protocol: it answers request with
// replies (none: silence) and fails the test on any other request.
func Answering(t testing.TB, request []byte, replies ...[]byte) netip.AddrPort {
	return UDP(t, func(req []byte) [][]byte {
		if !bytes.Equal(req, request) {
			t.Errorf("request % X, want % X", req, request)
			return nil
		}
		return replies
	})
}

// Probe queries addr with a querier p makes of s, within d, and returns what
// the probe would show: the result, the trace and the error.
func Probe(t testing.TB, p protocols.Protocol, addr netip.AddrPort, s protocols.Settings, d time.Duration) (*protocols.Result, *wire.Trace, error) {
	t.Helper()
	q, err := p.New(s)
	if err != nil {
		t.Fatal(err)
	}
	tr := wire.NewTrace()
	res, err := q.Query(Context(t, d), protocols.At(addr), tr)
	return res, tr, err
}
