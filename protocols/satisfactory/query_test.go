package satisfactory

import (
	"slices"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// withCookie returns a copy of the response vector carrying the poll's cookie.
func withCookie(vec, req []byte) []byte {
	out := slices.Clone(vec)
	if len(req) == 13 && len(out) >= 12 {
		copy(out[4:12], req[4:12])
	}
	return out
}

// lq answers each poll with vec, carrying the poll's cookie, and nothing else
// (an empty vec: nothing at all).
func lq(vec []byte) prototest.Handler {
	return func(req []byte) [][]byte {
		if !isPoll(req) || len(vec) == 0 {
			return nil
		}
		return [][]byte{withCookie(vec, req)}
	}
}

// isPoll checks the 13-byte request the spec's §3 defines.
func isPoll(req []byte) bool {
	return len(req) == 13 && req[0] == 0xD5 && req[1] == 0xF6 && req[2] == 0 && req[3] == 1 && req[12] == 1
}

// Each query polls with a fresh random cookie; an answer to another poll and
// junk before the answer are skipped, each noted.
func TestQueryRoundTrip(t *testing.T) {
	vec := prototest.HexFile(t, "playing_djwoodz.hex")
	cookies := make(chan []byte, 4)
	addr := prototest.UDP(t, func(req []byte) [][]byte {
		if !isPoll(req) {
			return nil
		}
		cookies <- slices.Clone(req[4:12])
		stale := withCookie(vec, req)
		stale[4] ^= 0xFF
		return [][]byte{stale, []byte("junk"), withCookie(vec, req)}
	})
	q := prototest.MustNew(t, Protocol, protocols.Settings{})
	for range 2 {
		res, tr, err := prototest.QueryWithin(t, q, addr, 2*time.Second)
		if err != nil || prototest.PhaseResults(tr) != "info:true" || prototest.Ignored(tr) != 2 {
			t.Fatalf("%v, phases %s, %d packets noted as ignored, want 2", err, prototest.PhaseResults(tr), prototest.Ignored(tr))
		}
		checkResult(t, res, wantOf(t, "playing_djwoodz"))
	}
	if n := len(cookies); n != 2 || slices.Equal(<-cookies, <-cookies) {
		t.Errorf("%d polls, or the same cookie twice: want a fresh random cookie per query", n)
	}
}

func TestQueryErrors(t *testing.T) {
	vec := prototest.HexFile(t, "playing_djwoodz.hex")
	foreign := func(req []byte) [][]byte {
		b := withCookie(vec, req)
		b[11] ^= 0x80
		return [][]byte{b}
	}
	junk := func([]byte) [][]byte { return [][]byte{[]byte("\xff\xff\xff\xffinfoResponse")} }
	prototest.ReplyFailures(t, Protocol, request(0), protocols.Settings{},
		prototest.ReplyFailure{Name: "only_foreign_cookies_is_mismatch", Handler: foreign, D: 300 * time.Millisecond, Want: wire.ErrMismatch},
		prototest.ReplyFailure{Name: "only_junk_is_malformed", Handler: junk, D: 300 * time.Millisecond, Want: wire.ErrMalformed},
		prototest.ReplyFailure{Name: "truncated_reply", Handler: func(req []byte) [][]byte { return [][]byte{withCookie(vec, req)[:40]} }, Want: wire.ErrTruncated},
		prototest.ReplyFailure{Name: "bad_terminator", Handler: lq(prototest.HexFile(t, "bad_terminator.hex")), Want: wire.ErrMalformed},
		prototest.ReplyFailure{Name: "echoed_poll_is_skipped", Handler: func(req []byte) [][]byte { return [][]byte{req} }, D: 300 * time.Millisecond, Want: wire.ErrMalformed})
}

// Silence and a closed port are failures too: the contract checks them.
func TestQuerierContract(t *testing.T) {
	vec := prototest.HexFile(t, "playing_djwoodz.hex")
	prototest.QuerierContract(t, prototest.Contract{
		Protocol: Protocol, Name: "satisfactory", DefaultPort: 7777, Transport: "udp",
		Answer:   lq(vec),
		WantName: "Satisfactory Server", RetryAttempts: 2,
	})
}

func TestQueryLegacy(t *testing.T) {
	vec := prototest.HexFile(t, "legacy_v0.hex")
	addr := prototest.UDP(t, func(req []byte) [][]byte {
		if len(req) != 10 || req[0] != 0 || req[1] != 0 {
			return nil
		}
		out := slices.Clone(vec)
		copy(out[2:10], req[2:10])
		return [][]byte{out}
	})
	res, _ := prototest.QueryOK(t, Protocol, addr, protocols.Settings{Options: prototest.OptionsOf(Options{Legacy: true})}, 2*time.Second)
	checkResult(t, res, wantOf(t, "legacy_v0"))
}

func BenchmarkQuery(b *testing.B) {
	prototest.QueryBench(b, Protocol, protocols.Settings{}, prototest.UDP(b, lq(prototest.HexFile(b, "playing_djwoodz.hex"))))
}
