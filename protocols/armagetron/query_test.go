package armagetron

import (
	"encoding/binary"
	"errors"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// server mimics armagetronad-dedicated 0.2.9: it answers the small request
// with small, and the big request with big only once a small request came
// (from any socket: the fake has one client). Extra datagrams go before the
// answer.
type server struct {
	small, big []byte
	before     [][]byte
	dropSmall  atomic.Int32 // small requests to ignore first
	mu         sync.Mutex
	primed     bool
	order      []uint16
}

func (s *server) handle(t testing.TB) prototest.Handler {
	return func(req []byte) [][]byte {
		if len(req) != 8 || binary.BigEndian.Uint16(req[6:]) != senderUnconnected {
			t.Errorf("request % x", req)
			return nil
		}
		desc := binary.BigEndian.Uint16(req)
		s.mu.Lock()
		defer s.mu.Unlock()
		s.order = append(s.order, desc)
		switch desc {
		case descSmallRequest:
			if s.dropSmall.Add(-1) >= 0 {
				return nil
			}
			s.primed = true
			return [][]byte{s.small}
		case descBigRequest:
			if !s.primed || s.big == nil {
				return nil
			}
			return append(append([][]byte(nil), s.before...), s.big)
		}
		t.Errorf("descriptor %d", desc)
		return nil
	}
}

// requests lists the descriptors received so far, in order.
func (s *server) requests() []uint16 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]uint16(nil), s.order...)
}

func newServer(t testing.TB, big []byte) *server {
	return &server{small: prototest.HexFile(t, "small_info_real_layout.hex"), big: big}
}

func query(t *testing.T, s protocols.Settings, d time.Duration, srv *server) (*protocols.Result, *wire.Trace, error) {
	t.Helper()
	addr := prototest.UDP(t, srv.handle(t))
	return prototest.QueryNew(t, Protocol, addr, s, d)
}

func TestQueryRoundTrip(t *testing.T) {
	prototest.HexVectors(t, func(t *testing.T, b []byte, w want) {
		if w.Error != "" {
			return // TestQueryErrors
		}
		srv := newServer(t, b)
		res, tr, err := query(t, protocols.Settings{Players: true, Rules: true}, 2*time.Second, srv)
		prototest.NoError(t, err)
		checkResult(t, res, w)
		if len(res.Rules) == 0 {
			t.Error("no rules")
		}
		if len(tr.Phases) != 2 || tr.Phases[0].Name != "challenge" || tr.Phases[1].Name != "info" || tr.Phases[1].Err != nil {
			t.Errorf("phases = %+v", tr.Phases)
		}
		if got := srv.requests(); !slices.Equal(got, []uint16{descSmallRequest, descBigRequest}) {
			t.Errorf("requests %v, want small then big", got)
		}
	})
}

func TestQueryRealCapture(t *testing.T) {
	srv := &server{small: prototest.Capture(t, "armagetron_armagetron_armagetron-small.resp.bin"),
		big: prototest.Capture(t, "armagetron_armagetron_armagetron-big.resp.bin")}
	res, _, err := query(t, protocols.Settings{}, 2*time.Second, srv)
	if err != nil || res.Name != "RealWorld Armagetron" || res.MaxPlayers != protocols.Known(12) || res.PlayerList != nil || res.Rules != nil {
		t.Fatalf("%+v %v", res, err)
	}
}

// Stray datagrams (another descriptor, garbage) are skipped while waiting.
func TestQuerySkipsStrays(t *testing.T) {
	srv := newServer(t, prototest.HexFile(t, "old_0_2_8_no_gids.hex"))
	srv.before = [][]byte{{1, 2, 3}, prototest.HexFile(t, "small_info_real_layout.hex"), prototest.HexFile(t, "bad_length_lies.hex")[:4]}
	res, tr, err := query(t, protocols.Settings{}, 2*time.Second, srv)
	if err != nil || res.Name != "Old Grid" {
		t.Fatalf("%+v %v", res, err)
	}
	if ignored := prototest.Ignored(tr); ignored != 3 {
		t.Errorf("%d datagrams noted as ignored, want 3", ignored)
	}
}

// The small reply is lost: small is re-sent, then big (three sends). Silence and
// a closed port are failures too.
func TestQuerierContract(t *testing.T) {
	srv := newServer(t, prototest.HexFile(t, "players_colours.hex"))
	prototest.QuerierContract(t, prototest.Contract{
		Protocol: Protocol, Name: "armagetron", DefaultPort: 4534, Transport: "udp",
		Answer: srv.handle(t), WantName: "Red Green Arena",
		Check: func(t testing.TB, res *protocols.Result, _ *wire.Trace) {
			if res.Players != protocols.Known(3) {
				t.Errorf("players %+v", res.Players)
			}
		},
		RetryDeadline: 900 * time.Millisecond, RetryAttempts: 3,
	})
}

func TestQueryErrors(t *testing.T) {
	for _, tc := range []struct {
		name   string
		srv    *server
		phases int
		want   error
	}{
		{"no_big_info_is_timeout", &server{small: prototest.HexFile(t, "small_info_real_layout.hex")}, 2, wire.ErrTimeout},
		{"big_length_lies", newServer(t, prototest.HexFile(t, "bad_length_lies.hex")), 2, wire.ErrTruncated},
		{"big_string_lies", newServer(t, prototest.HexFile(t, "bad_string_lies.hex")), 2, wire.ErrTruncated},
		{"big_fields_missing", newServer(t, prototest.HexFile(t, "bad_truncated_fields.hex")), 2, wire.ErrTruncated},
		{"small_garbage", &server{small: []byte{0, 50, 0, 0, 0, 9}}, 1, wire.ErrTruncated},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.srv.small == nil {
				tc.srv.dropSmall.Store(1 << 30)
			}
			_, tr, err := query(t, protocols.Settings{}, 300*time.Millisecond, tc.srv)
			if !errors.Is(err, tc.want) {
				t.Fatalf("err = %v, want %v", err, tc.want)
			}
			if len(tr.Phases) != tc.phases || !errors.Is(tr.Phases[tc.phases-1].Err, tc.want) {
				t.Errorf("phases = %+v", tr.Phases)
			}
		})
	}
}

// BenchmarkQuery is the full two-request exchange over loopback UDP.
func BenchmarkQuery(b *testing.B) {
	srv := newServer(b, prototest.HexFile(b, "players_colours.hex"))
	prototest.QueryBench(b, Protocol, protocols.Settings{Players: true}, prototest.UDP(b, srv.handle(b)))
}
