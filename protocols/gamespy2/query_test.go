package gamespy2

import (
	"bytes"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/gamespy/gamespytest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// Probes that must end in a timeout get a short deadline; the others a long one, so
// that a loaded test machine cannot turn them into timeouts.
const (
	deadline = 300 * time.Millisecond
	long     = 3 * time.Second
)

// withID returns a copy of reply b echoing the id of request req.
func withID(b, req []byte) []byte {
	out := bytes.Clone(b)
	if len(out) >= headerLen && len(req) >= 7 {
		copy(out[1:headerLen], req[3:7])
	}
	return out
}

// fakeServer answers info and player requests with the given replies (nil: silence)
// after a stray reply carrying another id, and records the requests it saw.
type fakeServer struct {
	t             *testing.T
	info, players []byte
	mu            sync.Mutex
	reqs          [][]byte
}

func (f *fakeServer) handle(req []byte) [][]byte {
	f.mu.Lock()
	f.reqs = append(f.reqs, req)
	f.mu.Unlock()
	if len(req) != 10 || req[0] != 0xFE || req[1] != 0xFD || req[2] != 0 {
		f.t.Errorf("request % x", req)
		return nil
	}
	var b []byte
	switch [3]byte(req[7:10]) {
	case flagsInfo:
		b = f.info
	case flagsPlayers:
		b = f.players
	default:
		f.t.Errorf("flags % x", req[7:10])
	}
	if b == nil {
		return nil
	}
	stray := withID(b, []byte("\xfe\xfd\x00XXXX"))
	return [][]byte{stray, withID(b, req)}
}

func (f *fakeServer) requests() [][]byte {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.reqs
}

func query(t *testing.T, d time.Duration, s protocols.Settings, h prototest.Handler) (*protocols.Result, *wire.Trace, error) {
	return prototest.QueryNew(t, Protocol, prototest.UDP(t, h), s, d)
}

func TestQueryInfoAndPlayers(t *testing.T) {
	t.Parallel()
	v := vector(t, "halo_like")
	f := &fakeServer{t: t, info: v[0], players: v[1]}
	res, tr, err := query(t, long, protocols.Settings{Players: true, Rules: true}, f.handle)
	if err != nil {
		t.Fatal(err)
	}
	if res.Name != "Test «Halo»" || res.Map != "bloodgulch" || res.Players != protocols.Known(3) || res.MaxPlayers != protocols.Known(16) {
		t.Errorf("result %+v", res)
	}
	if len(res.PlayerList) != 3 || res.PlayerList[1].Team != "Blue" || len(res.Rules) != 8 || len(res.PhaseErrors) != 0 {
		t.Errorf("players %+v rules %v errors %v", res.PlayerList, res.Rules, res.PhaseErrors)
	}
	reqs := f.requests()
	if len(reqs) != 2 || bytes.Equal(reqs[0][3:7], reqs[1][3:7]) {
		t.Errorf("requests % x", reqs)
	}
	if len(tr.Phases) != 2 || tr.Phases[0].Name != "info" || tr.Phases[1].Name != "players" {
		t.Errorf("phases %+v", tr.Phases)
	}
	ignored := prototest.Ignored(tr)
	if ignored != 2 {
		t.Errorf("%d replies ignored, want the 2 strays", ignored)
	}
}

func TestQueryInfoOnly(t *testing.T) {
	t.Parallel()
	v := vector(t, "halo_like")
	f := &fakeServer{t: t, info: v[0], players: v[1]}
	res, _, err := query(t, long, protocols.Settings{}, f.handle)
	if err != nil {
		t.Fatal(err)
	}
	if res.PlayerList != nil || res.Rules != nil || len(res.Info) == 0 || len(f.requests()) != 1 {
		t.Errorf("players %v rules %v after %d requests", res.PlayerList, res.Rules, len(f.requests()))
	}
}

// A server that ignores the flags sends its tables with the info: no second request.
func TestQueryUnaskedTables(t *testing.T) {
	t.Parallel()
	v := vector(t, "all_in_one")[0]
	f := &fakeServer{t: t, info: v, players: v}
	res, _, err := query(t, long, protocols.Settings{Players: true}, f.handle)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.PlayerList) != 1 || len(f.requests()) != 1 {
		t.Errorf("players %+v after %d requests", res.PlayerList, len(f.requests()))
	}
}

func TestQueryPlayersFail(t *testing.T) {
	t.Parallel()
	info := vector(t, "halo_like")[0]
	tests := []struct {
		name    string
		d       time.Duration
		players []byte
		want    error
		rows    int
	}{
		{"silent", time.Second, nil, wire.ErrTimeout, 0},
		{"cut row", long, vector(t, "cut_row")[0], wire.ErrTruncated, 2},
		{"no table", long, []byte("\x00CORX\x00"), wire.ErrTruncated, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := &fakeServer{t: t, info: info, players: tc.players}
			res, _, err := query(t, tc.d, protocols.Settings{Players: true}, f.handle)
			if err != nil {
				t.Fatal(err)
			}
			if res.Name != "Test «Halo»" || len(res.PlayerList) != tc.rows {
				t.Errorf("result %+v", res)
			}
			if len(res.PhaseErrors) != 1 || res.PhaseErrors[0].Phase != "players" || !errors.Is(res.PhaseErrors[0].Err, tc.want) {
				t.Errorf("phase errors %v", res.PhaseErrors)
			}
		})
	}
}

func TestQueryFailures(t *testing.T) {
	t.Parallel()
	gamespytest.Failures(t, Protocol, protocols.Settings{Retries: 1}, []gamespytest.Failure{
		{Name: "other id", D: deadline, H: func([]byte) [][]byte { return [][]byte{[]byte("\x00ABCD\x00")} }, Want: wire.ErrMismatch},
		{Name: "garbage", D: deadline, H: func([]byte) [][]byte { return [][]byte{[]byte("\xff\xff\xff\xffgarbage")} }, Want: wire.ErrMalformed},
		{Name: "header only", D: long, H: func(req []byte) [][]byte { return [][]byte{withID([]byte("\x00XXXX"), req)} }, Want: wire.ErrTruncated},
		{Name: "cut before anything", D: long, H: func(req []byte) [][]byte { return [][]byte{withID([]byte("\x00XXXXhostn"), req)} }, Want: wire.ErrTruncated},
		{Name: "too many columns", D: long, H: func(req []byte) [][]byte { return [][]byte{withID(vector(t, "too_many_columns")[0], req)} }, Want: wire.ErrTooLarge},
	})
}

// A cut info reply that still names the server is reported, rules flagged.
func TestQueryInfoCut(t *testing.T) {
	t.Parallel()
	cut := vector(t, "cut_kv")[0]
	f := &fakeServer{t: t, info: cut}
	res, _, err := query(t, long, protocols.Settings{Rules: true}, f.handle)
	if err != nil {
		t.Fatal(err)
	}
	if res.Name != "Cut" || len(res.PhaseErrors) != 1 || res.PhaseErrors[0].Phase != "rules" {
		t.Errorf("result %+v", res)
	}
}

// Silence and a closed port are failures too: the contract checks them.
func TestQuerierContract(t *testing.T) {
	t.Parallel()
	f := &fakeServer{t: t, info: vector(t, "halo_like")[0]}
	prototest.QuerierContract(t, prototest.Contract{
		Protocol: Protocol, Name: "gamespy2", DefaultPort: 2302, Transport: "udp",
		Answer: f.handle, WantName: "Test «Halo»", RetryDeadline: 900 * time.Millisecond,
	})
}

// TestQueryEncoding: a Cyrillic server's Windows-1251 names (server and
// players) read as such with `encoding: windows-1251`, as Windows-1252 without.
func TestQueryEncoding(t *testing.T) {
	t.Parallel()
	cp1251 := []byte{0xCF, 0xF0, 0xE8, 0xE2, 0xE5, 0xF2} // "Привет"
	v := vector(t, "halo_like")
	info := bytes.Replace(v[0], []byte("Test \xabHalo\xbb"), cp1251, 1)
	players := bytes.Replace(v[1], []byte("Alpha"), cp1251, 1)
	for enc, want := range map[string]string{"": "Ïðèâåò", "windows-1251": "Привет"} {
		f := &fakeServer{t: t, info: info, players: players}
		res, _, err := query(t, long, protocols.Settings{Players: true, Options: prototest.OptionsOf(Options{Encoding: enc})}, f.handle)
		if err != nil {
			t.Fatal(err)
		}
		if res.Name != want || len(res.PlayerList) != 3 || res.PlayerList[0].Name != want {
			t.Errorf("encoding %q: name %q players %+v, want %q", enc, res.Name, res.PlayerList, want)
		}
	}
}

func TestOptionsErrors(t *testing.T) {
	prototest.OptionsErrors(t, Protocol, prototest.BadOptions{"encoding: koi8-r": `gamespy2 options: unknown encoding "koi8-r"`})
}
