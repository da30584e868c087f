package mumble

import (
	"slices"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// isPing checks the 12-byte legacy ping.
func isPing(req []byte) bool {
	return len(req) == requestLen && slices.Equal(req[:4], []byte{0, 0, 0, 0})
}

// echoing answers each ping with the given vectors, their identifier replaced by
// the request's (vectors are built with 01..08), unless keep is set.
func echoing(t testing.TB, keep bool, files ...string) prototest.Handler {
	var vecs [][]byte
	for _, f := range files {
		vecs = append(vecs, prototest.HexFile(t, f))
	}
	return func(req []byte) [][]byte {
		if !isPing(req) {
			t.Errorf("request % X is not the ping", req)
			return nil
		}
		var out [][]byte
		for _, v := range vecs {
			v = slices.Clone(v)
			if !keep && len(v) >= 12 {
				copy(v[4:12], req[4:12])
			}
			out = append(out, v)
		}
		return out
	}
}

func query(t *testing.T, s protocols.Settings, deadline time.Duration, h prototest.Handler) (*protocols.Result, *wire.Trace, error) {
	return prototest.QueryNew(t, Protocol, prototest.UDP(t, h), s, deadline)
}

// The round trip; then a late answer to another ping and a runt before the
// answer, skipped and noted.
func TestQueryRoundTrip(t *testing.T) {
	res, tr, err := query(t, protocols.Settings{Rules: true, Players: true}, 2*time.Second, echoing(t, false, "reply_1_3_4.hex"))
	prototest.CheckProbe(t, res, tr, err, `"" "" "Mumble" "1.3.4" 5/50 bots ? pw 0 - rules 1 info 4 partial [] | info:ok skipped 0 log 0`)
	if !slices.Equal(res.Rules, []protocols.KV{{Key: "bandwidth", Value: "72000"}}) {
		t.Errorf("rules %+v", res.Rules)
	}
	h, good := echoing(t, true, "reply_wrong_ident.hex", "reply_runt.hex"), echoing(t, false, "reply_1_5_patch_capped.hex")
	res, tr, err = query(t, protocols.Settings{}, 2*time.Second, func(req []byte) [][]byte { return append(h(req), good(req)...) })
	prototest.CheckProbe(t, res, tr, err, `"" "" "Mumble" "1.5.255" 12/100 bots ? pw 0 - rules - info 4 partial [] | info:ok skipped 2 log 2`)
}

func TestQueryErrors(t *testing.T) {
	prototest.ReplyFailures(t, Protocol, request(vecIdent), protocols.Settings{Retries: 1},
		prototest.ReplyFailure{Name: "only_other_identifiers_is_mismatch", Handler: echoing(t, true, "reply_wrong_ident.hex"), D: 300 * time.Millisecond, Want: wire.ErrMismatch},
		prototest.ReplyFailure{Name: "only_runts_is_truncated", Handler: echoing(t, true, "reply_runt.hex"), D: 300 * time.Millisecond, Want: wire.ErrTruncated},
		prototest.ReplyFailure{Name: "short_reply_is_truncated", Handler: echoing(t, false, "reply_short.hex"), Want: wire.ErrTruncated},
		prototest.ReplyFailure{Name: "reflected_ping_is_truncated", Handler: func(req []byte) [][]byte { return [][]byte{req} }, Want: wire.ErrTruncated})
}

// Silence and a closed port are failures too: the contract checks them. Mumble
// reports no server name: the version tells the reply was decoded.
func TestQuerierContract(t *testing.T) {
	prototest.QuerierContract(t, prototest.Contract{
		Protocol: Protocol, Name: "mumble", DefaultPort: 64738, Transport: "udp",
		Answer: echoing(t, false, "reply_1_3_4.hex"),
		Check: func(t testing.TB, res *protocols.Result, _ *wire.Trace) {
			if res.Version != "1.3.4" {
				t.Errorf("version %q", res.Version)
			}
		},
		RetryAttempts: 2,
	})
}

func TestQueryIdentifierIsRandom(t *testing.T) {
	reqs := make(chan []byte, 4)
	h := echoing(t, false, "reply_1_3_4.hex")
	addr := prototest.UDP(t, func(req []byte) [][]byte {
		reqs <- slices.Clone(req)
		return h(req)
	})
	q := prototest.MustNew(t, Protocol, protocols.Settings{})
	for range 2 {
		prototest.WithinOK(t, q, addr, 2*time.Second)
	}
	if a, b := <-reqs, <-reqs; slices.Equal(a, b) {
		t.Errorf("two probes sent the same identifier % X", a)
	}
}

// The settings reach the exchange: its retries, and the rules only when asked
// for; bytes past the reply are logged.
func TestNewSettings(t *testing.T) {
	for _, rules := range []bool{true, false} {
		q, tr := prototest.MustNew(t, Protocol, protocols.Settings{Retries: 3, Rules: rules}).(*protocols.EchoExchange[*status]), wire.NewTrace()
		if res := q.Result(&status{Trailing: 2}, tr); q.Retries != 3 || (res.Rules != nil) != rules || !prototest.Logged(tr, "ignored 2 bytes") {
			t.Errorf("retries %d, rules %v, log %+v; want rules: %v", q.Retries, res.Rules, tr.Entries, rules)
		}
	}
}

func BenchmarkQuery(b *testing.B) {
	prototest.QueryBench(b, Protocol, protocols.Settings{}, prototest.UDP(b, echoing(b, false, "reply_1_3_4.hex")))
}

// TestQstatCrossCheck queries the same fake server with `quakestat -mumble` and
// with the Querier. qstat reports no name or map for Mumble ("Unknown", "N/A")
// and a wrong version, so only the user counts are compared.
func TestQstatCrossCheck(t *testing.T) {
	prototest.NeedQstat(t)
	for _, file := range []string{"reply_1_3_4.hex", "reply_1_5_patch_capped.hex"} {
		t.Run(file, func(t *testing.T) {
			addr := prototest.UDP(t, echoing(t, false, file))
			qs := prototest.QstatJSON(t, "-mumble", addr)
			res, _ := prototest.QueryOK(t, Protocol, addr, protocols.Settings{}, 2*time.Second)
			if qs.Status != "online" || int64(qs.NumPlayers) != res.Players.Value || int64(qs.MaxPlayers) != res.MaxPlayers.Value {
				t.Errorf("qstat %+v, querier %d/%d", qs, res.Players.Value, res.MaxPlayers.Value)
			}
		})
	}
}
