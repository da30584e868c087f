package skycoop

import (
	"encoding/binary"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// isPing checks the 4-byte status ping (int32 -2).
func isPing(req []byte) bool {
	return len(req) == 4 && int32(binary.LittleEndian.Uint32(req)) == -2
}

// server answers pings with the given datagrams, in order.
func server(t testing.TB, replies ...[]byte) prototest.Handler {
	return func(req []byte) [][]byte {
		if !isPing(req) {
			t.Errorf("request % X is not the status ping", req)
			return nil
		}
		return replies
	}
}

func query(t *testing.T, s protocols.Settings, deadline time.Duration, h prototest.Handler) (*protocols.Result, *wire.Trace, error) {
	t.Helper()
	return prototest.QueryNew(t, Protocol, prototest.UDP(t, h), s, deadline)
}

// Every vector answered over loopback gives the decoder's result, or its error,
// in one phase; a reply of another packet id is skipped until the deadline.
func TestQueryVectors(t *testing.T) {
	for _, name := range prototest.Names(t, ".hex") {
		t.Run(name, func(t *testing.T) {
			w, d := wantOf(t, name), 2*time.Second
			if w.Error == "mismatch" {
				d = 300 * time.Millisecond
			}
			res, tr, err := query(t, protocols.Settings{Players: true, Retries: 1}, d, server(t, prototest.HexFile(t, name+".hex")))
			if len(tr.Phases) != 1 || tr.Phases[0].Name != "info" || !errors.Is(tr.Phases[0].Err, err) || wire.Reason(err) != w.Error && w.Error != "" {
				t.Fatalf("err %v, phases %+v; want %s", err, tr.Phases, w.Error)
			}
			if w.Error == "" {
				checkResult(t, res, w)
			}
		})
	}
}

// The settings reach the exchange: without players, no list and no players
// phase error (the config is cut); a configured packet id is the one answered;
// a game packet and a runt before the reply are skipped, each noted.
func TestQuerySettings(t *testing.T) {
	reply := prototest.HexFile(t, "spec_worked_srv.hex")
	binary.LittleEndian.PutUint32(reply, 150)
	const srv = `"Srv" "" "The Long Dark" "0.13.2" 1/4 bots ? pw 0 [Alice] rules - info 8 partial [] | info:ok `
	for _, c := range []struct {
		s       protocols.Settings
		replies [][]byte
		want    string // prototest.ProbeLine
	}{
		{protocols.Settings{}, [][]byte{prototest.HexFile(t, "config_truncated.hex")},
			`"Cut" "" "The Long Dark" "0.13.2" 2/6 bots ? pw 0 - rules - info 6 partial [] | info:ok skipped 0 log 1`},
		{protocols.Settings{Players: true, Options: prototest.OptionsYAML("packet_id: 150")}, [][]byte{reply}, srv + "skipped 0 log 0"},
		{protocols.Settings{Players: true}, [][]byte{{5, 0, 0, 0, 1, 2, 3}, {0x93}, prototest.HexFile(t, "spec_worked_srv.hex")}, srv + "skipped 2 log 2"},
	} {
		res, tr, err := query(t, c.s, 2*time.Second, server(t, c.replies...))
		prototest.CheckProbe(t, res, tr, err, c.want)
	}
}

// Replies besides the vectors' that fail: runts, the ping echoed, a header
// followed by garbage ("garb" read as a length).
func TestQueryErrors(t *testing.T) {
	prototest.ReplyFailures(t, Protocol, request(), protocols.Settings{Retries: 1},
		prototest.ReplyFailure{Name: "only_runts_is_truncated", Replies: [][]byte{{0x93, 0}}, D: 300 * time.Millisecond, Want: wire.ErrTruncated},
		prototest.ReplyFailure{Name: "echoed_ping_is_mismatch", Replies: [][]byte{request()}, D: 300 * time.Millisecond, Want: wire.ErrMismatch},
		prototest.ReplyFailure{Name: "garbage_after_header", Replies: [][]byte{append([]byte{0x93, 0, 0, 0}, "garbage!"...)}, Want: wire.ErrTooLarge})
}

// Silence and a closed port are failures too: the contract checks them.
func TestQuerierContract(t *testing.T) {
	prototest.QuerierContract(t, prototest.Contract{
		Protocol: Protocol, Name: "skycoop", DefaultPort: 26950, Transport: "udp",
		Answer:   server(t, prototest.HexFile(t, "spec_worked_srv.hex")),
		WantName: "Srv", RetryAttempts: 2,
	})
}

func TestNewOptions(t *testing.T) {
	prototest.OptionsErrors(t, Protocol, prototest.BadOptions{"packet_id: -2": "packet_id", "packet_id: 65536": "packet_id"})
	got := prototest.MustNew(t, Protocol, protocols.Settings{Retries: 3, Players: true}).(*protocols.UDPExchange[*status])
	id := binary.LittleEndian.AppendUint32(nil, defaultPacketID)
	if res := got.Result(&status{ConfigErr: wire.ErrMalformed}, nil); got.Retries != 3 || got.Answers(id) != nil || res.PhaseErrors == nil {
		t.Errorf("retries %d, packet id %d answered: %v, players asked for: %v", got.Retries, defaultPacketID, got.Answers(id), res.PhaseErrors)
	}
	if !slices.Equal(request(), []byte{0xFE, 0xFF, 0xFF, 0xFF}) {
		t.Errorf("request % X", request())
	}
}

func BenchmarkQuery(b *testing.B) {
	vec := prototest.HexFile(b, "rcon_counted.hex")
	prototest.QueryBench(b, Protocol, protocols.Settings{Players: true}, prototest.UDP(b, func([]byte) [][]byte { return [][]byte{vec} }))
}
