package eos

import (
	"net/netip"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

func BenchmarkDecodeSessions(b *testing.B) {
	target, names := netip.MustParseAddrPort("203.0.113.10:7779"), presetAttrs("arksa")
	prototest.DecodeBench(b, prototest.File(b, "sessions_arksa.json"), func(data []byte) error {
		pk, err := decodeSessions(data, target)
		if err == nil {
			pk.session.result(names, false)
		}
		return err
	})
}

// BenchmarkQuery is a session search over loopback with a kept token (the
// steady state: one sign-in an hour).
func BenchmarkQuery(b *testing.B) {
	srv, _ := prototest.HTTP(b, newFake(b), false)
	prototest.QueryBench(b, Protocol, protocols.Settings{Options: prototest.OptionsOf(Options{APIBase: srv.URL})}, target)
}
