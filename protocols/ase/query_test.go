package ase

import (
	"bytes"
	"errors"
	"fmt"
	"net/netip"
	"reflect"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

func lp(s string) []byte { return append([]byte{byte(len(s) + 1)}, s...) }

// bigReply builds an EYE1 reply with n players, long enough to need splitting.
func bigReply(n int) []byte {
	b := append([]byte(nil), magic...)
	for _, s := range []string{"bf1942", "14567", "Big Server", "conquest", "Wake Island", "1.61", "0", fmt.Sprint(n), "64"} {
		b = append(b, lp(s)...)
	}
	b = append(b, lp("tickets")...)
	b = append(b, lp("150")...)
	b = append(b, 0x01)
	for i := range n {
		b = append(b, 0x3F)
		for _, s := range []string{fmt.Sprintf("player_number_%03d", i), "1", "", fmt.Sprint(i), "50", "120"} {
			b = append(b, lp(s)...)
		}
	}
	return b
}

// split cuts body into fragments per spec §5: every fragment but the last is exactly
// fragmentSize bytes; fragment 1 keeps the magic, later ones carry "EYE<n>"; each
// ends with the 4-byte reply id.
func split(body []byte, id string) [][]byte {
	var out [][]byte
	rest := body
	for n := 1; len(rest) > 0; n++ {
		var f []byte
		if n > 1 {
			f = append(f, 'E', 'Y', 'E', byte('0'+n))
		}
		room := fragmentSize - len(f) - idLen
		take := min(room, len(rest))
		f = append(f, rest[:take]...)
		rest = rest[take:]
		out = append(out, append(f, id...))
	}
	return out
}

func query(t testing.TB, addr netip.AddrPort, s protocols.Settings, d time.Duration) (*protocols.Result, *wire.Trace, error) {
	t.Helper()
	q, err := newQuerier(s)
	if err != nil {
		t.Fatal(err)
	}
	tr := wire.NewTrace()
	res, err := q.Query(prototest.Context(t, d), protocols.At(addr), tr)
	return res, tr, err
}

var all = protocols.Settings{Players: true, Rules: true}

func TestQuerySingle(t *testing.T) {
	reply := readVec(t, "basic")
	var bad atomic.Bool
	addr := prototest.UDP(t, func(req []byte) [][]byte {
		if !bytes.Equal(req, []byte("s")) {
			bad.Store(true)
			return nil
		}
		return [][]byte{reply}
	})
	res, tr, err := query(t, addr, all, 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if bad.Load() {
		t.Error("request was not exactly \"s\"")
	}
	if res.Name != "Café Server" || res.Map != "mp_Training" || res.Game != "farcry" || res.Version != "1.4" ||
		res.Players != known(3) || res.MaxPlayers != known(16) || res.Password != protocols.FlagTrue {
		t.Errorf("result = %+v", res)
	}
	if len(res.PlayerList) != 3 || len(res.Rules) != 2 || res.PhaseErrors != nil {
		t.Errorf("players %v rules %v phase errors %v", res.PlayerList, res.Rules, res.PhaseErrors)
	}
	if len(tr.Phases) != 1 || tr.Phases[0].Name != "info" || tr.Phases[0].Err != nil {
		t.Errorf("phases = %+v", tr.Phases)
	}

	res, _, err = query(t, addr, protocols.Settings{}, 2*time.Second)
	if err != nil || res.PlayerList != nil || res.Rules != nil || res.Players != known(3) {
		t.Errorf("without players/rules: %+v, %v", res, err)
	}
}

func TestQuerySplit(t *testing.T) {
	body := bigReply(120)
	want, err := decode(body)
	if err != nil || want.PlayersErr != nil {
		t.Fatal(err, want.PlayersErr)
	}
	frags := split(body, "\x01\x02\x03\x04")
	if len(frags) < 3 {
		t.Fatalf("want at least 3 fragments, got %d", len(frags))
	}
	other := split(bigReply(90), "\x09\x09\x09\x09")
	tests := []struct {
		name  string
		reply [][]byte
	}{
		{"in order", frags},
		{"reversed", reverse(frags)},
		{"duplicated", [][]byte{frags[1], frags[0], frags[1], frags[0], frags[2], frags[2]}},
		{"strays", [][]byte{frags[0], []byte("garbage"), other[1], []byte("EYEZ...."), frags[2], frags[1]}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			addr := prototest.UDP(t, func([]byte) [][]byte { return tc.reply })
			res, _, err := query(t, addr, all, 2*time.Second)
			if err != nil {
				t.Fatal(err)
			}
			if res.PhaseErrors != nil || !reflect.DeepEqual(res.PlayerList, want.PlayerList) ||
				res.Name != "Big Server" || res.Players != known(120) {
				t.Errorf("got %d players, phase errors %v", len(res.PlayerList), res.PhaseErrors)
			}
		})
	}
}

func reverse(in [][]byte) [][]byte {
	out := make([][]byte, len(in))
	for i, b := range in {
		out[len(in)-1-i] = b
	}
	return out
}

func TestQuerySplitMissing(t *testing.T) {
	t.Parallel()
	frags := split(bigReply(120), "abcd")
	t.Run("middle", func(t *testing.T) {
		t.Parallel()
		addr := prototest.UDP(t, func([]byte) [][]byte { return [][]byte{frags[0], frags[2]} })
		start := time.Now()
		res, _, err := query(t, addr, all, time.Second)
		if err != nil {
			t.Fatal(err)
		}
		if time.Since(start) > 3*time.Second+prototest.LagSince(start) {
			t.Errorf("took %v", time.Since(start))
		}
		if res.Name != "Big Server" || res.Players != known(120) {
			t.Errorf("header lost: %+v", res)
		}
		if len(res.PhaseErrors) != 1 || res.PhaseErrors[0].Phase != "players" || !errors.Is(res.PhaseErrors[0].Err, wire.ErrTimeout) {
			t.Errorf("phase errors = %v", res.PhaseErrors)
		}
		if len(res.PlayerList) == 0 || len(res.PlayerList) >= 120 {
			t.Errorf("%d players decoded before the gap", len(res.PlayerList))
		}
	})
	// A whole reply of exactly fragmentSize bytes looks like fragment 1 of 2 (qstat's
	// rule): the probe waits for a fragment 2 that never comes, then reports the
	// header with the rest flagged lost.
	t.Run("exact size single", func(t *testing.T) {
		t.Parallel()
		b := append([]byte(nil), magic...)
		for _, s := range []string{"bf1942", "14567", "Exact", "ctf", "Berlin", "1.6", "0", "0", "32", "pad"} {
			b = append(b, lp(s)...)
		}
		pad := fragmentSize - len(b) - 2 // value length byte + end-of-rules byte
		b = append(append(b, lp(string(bytes.Repeat([]byte{'x'}, pad)))...), 0x01)
		if len(b) != fragmentSize {
			t.Fatalf("built %d bytes", len(b))
		}
		addr := prototest.UDP(t, func([]byte) [][]byte { return [][]byte{b} })
		res, _, err := query(t, addr, all, time.Second)
		if err != nil {
			t.Fatal(err)
		}
		if res.Name != "Exact" || len(res.PhaseErrors) != 2 || !errors.Is(res.PhaseErrors[0].Err, wire.ErrTimeout) {
			t.Errorf("result %+v", res)
		}
	})
	t.Run("first", func(t *testing.T) {
		t.Parallel()
		addr := prototest.UDP(t, func([]byte) [][]byte { return frags[1:] })
		_, _, err := query(t, addr, all, 300*time.Millisecond)
		if !errors.Is(err, wire.ErrTimeout) {
			t.Errorf("err = %v, want timeout", err)
		}
	})
}

func TestQueryFailures(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		addr func(t testing.TB) netip.AddrPort
		want error
	}{
		{"garbage only", func(t testing.TB) netip.AddrPort {
			return prototest.UDP(t, func([]byte) [][]byte { return [][]byte{[]byte("xyz"), []byte("EYE")} })
		}, wire.ErrTimeout},
		{"truncated header", func(t testing.TB) netip.AddrPort {
			b := readVec(t, "header_overrun")
			return prototest.UDP(t, func([]byte) [][]byte { return [][]byte{b} })
		}, wire.ErrTruncated},
		{"zero length byte", func(t testing.TB) netip.AddrPort {
			b := readVec(t, "header_zero_len")
			return prototest.UDP(t, func([]byte) [][]byte { return [][]byte{b} })
		}, wire.ErrMalformed},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			// Silence is awaited for 300ms; a server that answers gets slack for a loaded machine.
			d := 300 * time.Millisecond
			if tc.want != wire.ErrTimeout && tc.want != wire.ErrRefused {
				d = 2 * time.Second
			}
			_, tr, err := query(t, tc.addr(t), protocols.Settings{Players: true, Retries: 1}, d)
			if !errors.Is(err, tc.want) {
				t.Errorf("err = %v, want %v", err, tc.want)
			}
			if el := time.Since(start); el > 2*time.Second+prototest.LagSince(start) {
				t.Errorf("returned after %v", el)
			}
			if len(tr.Phases) != 1 || tr.Phases[0].Err == nil {
				t.Errorf("phases = %+v", tr.Phases)
			}
		})
	}
}

func TestQueryPartial(t *testing.T) {
	b := readVec(t, "player_cut")
	addr := prototest.UDP(t, func([]byte) [][]byte { return [][]byte{b} })
	res, _, err := query(t, addr, all, 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.PlayerList) != 2 || len(res.PhaseErrors) != 1 || !errors.Is(res.PhaseErrors[0].Err, wire.ErrTruncated) {
		t.Errorf("players %v, phase errors %v", res.PlayerList, res.PhaseErrors)
	}
}

// Silence and a closed port are failures too: the contract checks them.
func TestQuerierContract(t *testing.T) {
	t.Parallel()
	reply := readVec(t, "minimal")
	prototest.QuerierContract(t, prototest.Contract{
		Protocol: Protocol, Name: "ase", DefaultPort: 22003, PortOffset: 123, Transport: "udp",
		Settings: protocols.Settings{Players: true},
		Answer:   func([]byte) [][]byte { return [][]byte{reply} },
		Check: func(t testing.TB, res *protocols.Result, _ *wire.Trace) {
			if res.Game != "mta" {
				t.Errorf("game %q", res.Game)
			}
		},
		RetryAttempts: 2,
	})
}
