package savage

import (
	"bytes"
	"errors"
	"net/netip"
	"sync"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// answer returns reply with the request's echo bytes copied in, as a server does.
func answer(req, reply []byte) []byte {
	out := bytes.Clone(reply)
	if len(req) >= 10 && len(out) >= minReply {
		copy(out[echoOffset:minReply], req[6:10])
	}
	return out
}

// server answers CE with ext and C8 with basic (nil: no answer), echoing the request.
func server(t testing.TB, ext, basic []byte) netip.AddrPort {
	return prototest.UDP(t, func(req []byte) [][]byte {
		if len(req) != 10 || !bytes.Equal(req[:len(header)], header) {
			t.Errorf("request % X is not a 10-byte Savage query", req)
			return nil
		}
		switch {
		case req[5] == cmdExtInfo && ext != nil:
			return [][]byte{answer(req, ext)}
		case req[5] == cmdInfo && basic != nil:
			return [][]byte{answer(req, basic)}
		}
		return nil
	})
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

func TestQueryExtended(t *testing.T) {
	addr := server(t, readVec(t, "ext_basic"), readVec(t, "basic_c9"))
	res, tr, err := query(t, addr, all, 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if res.Name != "Newerth Arena" || res.Map != "eden2" || res.Players != known(3) || res.MaxPlayers != known(16) ||
		res.Password != protocols.FlagTrue || len(res.PlayerList) != 3 || len(res.Rules) == 0 || res.PhaseErrors != nil {
		t.Errorf("result %+v", res)
	}
	if len(tr.Packets) != 2 || tr.Packets[0].Data[5] != cmdExtInfo || len(tr.Phases) != 1 || tr.Phases[0].Name != "info" {
		t.Errorf("trace: %d packets, phases %+v", len(tr.Packets), tr.Phases)
	}
}

func TestQueryFallback(t *testing.T) {
	t.Parallel()
	addr := server(t, nil, readVec(t, "basic_c9"))
	// The fallback goes out after half the deadline: the other half must hold the
	// C8 round trip on a busy machine too (1 s failed beside four CPU hogs).
	res, tr, err := query(t, addr, all, 4*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if res.Name != "Basic" || res.Players != known(0) || res.PlayerList != nil {
		t.Errorf("result %+v", res)
	}
	if len(res.PhaseErrors) != 1 || res.PhaseErrors[0].Phase != "players" || !errors.Is(res.PhaseErrors[0].Err, wire.ErrTimeout) {
		t.Errorf("phase errors %v", res.PhaseErrors)
	}
	if tr.Attempts != 2 {
		t.Errorf("%d requests sent, want CE then C8", tr.Attempts)
	}
}

// A CF that arrives only after the fallback was sent still answers the query.
func TestQueryLateExtended(t *testing.T) {
	t.Parallel()
	ext := readVec(t, "ext_basic")
	var (
		mu   sync.Mutex
		last []byte
	)
	addr := prototest.UDP(t, func(req []byte) [][]byte {
		mu.Lock()
		defer mu.Unlock()
		if req[5] == cmdExtInfo {
			last = req // hold the answer back
			return nil
		}
		return [][]byte{answer(last, ext)}
	})
	res, _, err := query(t, addr, all, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.PlayerList) != 3 || res.PhaseErrors != nil {
		t.Errorf("players %v phase errors %v", res.PlayerList, res.PhaseErrors)
	}
}

func TestQueryEcho(t *testing.T) {
	t.Parallel()
	ext := readVec(t, "ext_basic")
	wrong := func(req []byte) []byte {
		r := answer(req, ext)
		r[echoOffset] ^= 0x55
		return r
	}
	t.Run("mismatch only", func(t *testing.T) {
		t.Parallel()
		addr := prototest.UDP(t, func(req []byte) [][]byte { return [][]byte{wrong(req)} })
		_, _, err := query(t, addr, all, 300*time.Millisecond)
		if !errors.Is(err, wire.ErrMismatch) {
			t.Errorf("err = %v, want mismatch", err)
		}
	})
	t.Run("mismatch then match", func(t *testing.T) {
		t.Parallel()
		addr := prototest.UDP(t, func(req []byte) [][]byte {
			return [][]byte{wrong(req), []byte("noise"), answer(req, ext)}
		})
		res, tr, err := query(t, addr, all, 2*time.Second)
		if err != nil || len(res.PlayerList) != 3 {
			t.Fatalf("%v, %+v", err, res)
		}
		if tr.Packets[1].Note == "" || tr.Packets[2].Note == "" {
			t.Errorf("ignored replies not noted in the trace: %+v", tr.Packets)
		}
	})
}

func TestQueryFailures(t *testing.T) {
	t.Parallel()
	tooMany := append(newRequest(cmdExtInfoReply, [4]byte{})[:len(header)+1], 12, 0, 0, 0, 0)
	tooMany = append(tooMany, bytes.Repeat([]byte{0xFF, 'k', 0xFE}, maxPairs+1)...)
	tests := []struct {
		name string
		addr func(t testing.TB) netip.AddrPort
		want error
	}{
		{"garbage", func(t testing.TB) netip.AddrPort {
			short, ping, flags := readVec(t, "short"), readVec(t, "ping_reply"), readVec(t, "bad_flags")
			return prototest.UDP(t, func(req []byte) [][]byte {
				return [][]byte{short, answer(req, ping), answer(req, flags)}
			})
		}, wire.ErrTimeout},
		{"too many pairs", func(t testing.TB) netip.AddrPort { return server(t, tooMany, tooMany) }, wire.ErrTooLarge},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
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
				t.Errorf("phases %+v", tr.Phases)
			}
		})
	}
}

func TestQueryPartial(t *testing.T) {
	addr := server(t, readVec(t, "game_truncated"), nil)
	res, _, err := query(t, addr, all, 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if res.Name != "Cut" || len(res.PhaseErrors) != 2 || len(res.PlayerList) != 2 {
		t.Errorf("result %+v", res)
	}
}

// The lost request is re-sent as the extended query (CE), not the basic one. A
// silent server gets CE and then the basic query (C8), each sent up to 3 times.
// Silence and a closed port are failures too: the contract checks them.
func TestQuerierContract(t *testing.T) {
	t.Parallel()
	ext := readVec(t, "ext_basic")
	prototest.QuerierContract(t, prototest.Contract{
		Protocol: Protocol, Name: "savage", DefaultPort: 11235, Transport: "udp",
		Settings: protocols.Settings{Players: true},
		Answer:   func(req []byte) [][]byte { return [][]byte{answer(req, ext)} },
		Check: func(t testing.TB, res *protocols.Result, tr *wire.Trace) {
			if len(res.PlayerList) != 3 || tr.Packets[1].Data[5] != cmdExtInfo {
				t.Errorf("players %v, second request % X", res.PlayerList, tr.Packets[1].Data)
			}
		},
		RetryDeadline:  1200 * time.Millisecond,
		RetryAttempts:  2,
		SilentAttempts: [2]int{2, 6},
	})
}
