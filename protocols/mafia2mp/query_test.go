package mafia2mp

import (
	"errors"
	"net/netip"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// server answers its own mod's tag only, as each mod's server does.
func server(t testing.TB, tag string, replies ...[]byte) netip.AddrPort {
	return prototest.UDP(t, func(req []byte) [][]byte {
		if string(req) != tag {
			return nil
		}
		return replies
	})
}

func online(s protocols.Settings) protocols.Settings {
	s.Options = func(v any) error { v.(*Options).Variant = "online"; return nil }
	return s
}

func TestQuery(t *testing.T) {
	t.Parallel()
	res, _, err := prototest.QueryNew(t, Protocol, server(t, tagM2MP, []byte("M2Onl"), prototest.VecFile(t, "m2mp")), protocols.Settings{Players: true}, 2*time.Second)
	if err != nil || res.Name != "Empire Bay Roleplay" || len(res.PlayerList) != 3 {
		t.Fatalf("%v, %+v", err, res)
	}
	prototest.CheckBots(t, res, 3, prototest.Unknown, true)
	res, _, err = prototest.QueryNew(t, Protocol, server(t, tagOnline, prototest.VecFile(t, "m2o")), online(protocols.Settings{Players: true}), 2*time.Second)
	if err != nil || res.Name != "M2O Freeroam é" || len(res.PlayerList) != 2 || !res.PlayerList[1].Ping.Known {
		t.Fatalf("%v, %+v", err, res)
	}
}

func TestQueryFailures(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		addr netip.AddrPort
		s    protocols.Settings
		d    time.Duration
		want error
	}{
		{"cut", server(t, tagM2MP, prototest.VecFile(t, "short")), protocols.Settings{}, 2 * time.Second, wire.ErrTruncated},
		// An M2O server does not answer M2MP's tag.
		{"other mod", server(t, tagOnline, prototest.VecFile(t, "m2o")), protocols.Settings{}, 300 * time.Millisecond, wire.ErrTimeout},
		{"other tag only", server(t, tagOnline, prototest.VecFile(t, "m2mp")), online(protocols.Settings{}), 300 * time.Millisecond, wire.ErrMalformed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.s.Retries = 1
			_, tr, err := prototest.QueryNew(t, Protocol, tc.addr, tc.s, tc.d)
			if !errors.Is(err, tc.want) {
				t.Errorf("err = %v, want %v", err, tc.want)
			}
			if len(tr.Phases) != 1 || tr.Phases[0].Err == nil {
				t.Errorf("phases %+v", tr.Phases)
			}
		})
	}
}

func TestOptionsErrors(t *testing.T) {
	prototest.OptionsErrors(t, Protocol, prototest.BadOptions{
		"variant: mafia3": `mafia2mp options: variant "mafia3"`,
		"encoding: cp437": `mafia2mp options: unknown encoding "cp437"`,
	})
}

func TestQuerierContract(t *testing.T) {
	t.Parallel()
	m2mp := prototest.VecFile(t, "m2mp")
	prototest.QuerierContract(t, prototest.Contract{
		Protocol: Protocol, Name: "mafia2mp", DefaultPort: 27016, PortOffset: 1, Transport: "udp",
		Settings: protocols.Settings{Players: true},
		Answer:   func([]byte) [][]byte { return [][]byte{m2mp} },
		WantName: "Empire Bay Roleplay",
	})
}

func BenchmarkQuery(b *testing.B) {
	prototest.QueryBench(b, Protocol, protocols.Settings{Players: true}, server(b, tagM2MP, prototest.VecFile(b, "m2mp")))
}
