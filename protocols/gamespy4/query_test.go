package gamespy4

import (
	"bytes"
	"encoding/binary"
	"errors"
	"strconv"
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

// fakeServer behaves like vanilla's QueryThreadGs4: it issues a token per
// handshake, ignores stat requests without the current token, and tells full from
// basic stat by the request's length alone (15 bytes: full).
type fakeServer struct {
	t           *testing.T
	full, basic []byte
	// stale ignores the first stat request, as for a token purged by the sweep.
	stale bool

	mu     sync.Mutex
	reqs   [][]byte
	tokens map[[4]byte]int32
	issued int32
	stats  int
}

func (f *fakeServer) handle(req []byte) [][]byte {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.reqs = append(f.reqs, req)
	if len(req) < 7 || req[0] != 0xFE || req[1] != 0xFD {
		f.t.Errorf("request % x", req)
		return nil
	}
	session := [4]byte(req[3:7])
	if binary.BigEndian.Uint32(session[:])&^sessionMask != 0 {
		f.t.Errorf("session id %x is not masked with 0x0F0F0F0F", session)
	}
	if f.tokens == nil {
		f.tokens = map[[4]byte]int32{}
	}
	switch req[2] {
	case 0x09:
		f.issued -= 987654321 // negative tokens too
		f.tokens[session] = f.issued
		return [][]byte{append(append([]byte{0x09}, session[:]...), strconv.Itoa(int(f.issued))+"\x00"...)}
	case 0x00:
	default:
		f.t.Errorf("request type %02x", req[2])
		return nil
	}
	tok, ok := f.tokens[session]
	if len(req) < 11 || !ok || int32(binary.BigEndian.Uint32(req[7:11])) != tok {
		return nil // vanilla: silently ignored
	}
	f.stats++
	if f.stale && f.stats == 1 {
		return nil
	}
	b := f.basic
	if len(req) == 15 {
		b = f.full
	}
	if b == nil {
		return nil
	}
	// A reply to another session first: it must be ignored.
	return [][]byte{gamespytest.WithSession(b, []byte{9, 9, 9, 9}), gamespytest.WithSession(b, session[:])}
}

func (f *fakeServer) requests() [][]byte {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.reqs
}

func query(t *testing.T, d time.Duration, s protocols.Settings, h prototest.Handler) (*protocols.Result, *wire.Trace, error) {
	return prototest.QueryNew(t, Protocol, prototest.UDP(t, h), s, d)
}

func TestQueryFull(t *testing.T) {
	t.Parallel()
	f := &fakeServer{t: t, full: vector(t, "full_vanilla"), basic: vector(t, "basic")}
	res, tr, err := query(t, long, protocols.Settings{Players: true, Rules: true}, f.handle)
	if err != nil {
		t.Fatal(err)
	}
	if res.Name != "Café Craft" || res.Version != "1.20.4" || res.Players != protocols.Known(3) || len(res.PlayerList) != 3 ||
		len(res.Rules) != 10 || len(res.PhaseErrors) != 0 {
		t.Errorf("result %+v", res)
	}
	reqs := f.requests()
	if len(reqs) != 2 || len(reqs[0]) != 7 || len(reqs[1]) != 15 || !bytes.Equal(reqs[0][3:7], reqs[1][3:7]) ||
		!bytes.Equal(reqs[1][11:], []byte{0, 0, 0, 0}) {
		t.Errorf("requests % x", reqs)
	}
	if len(tr.Phases) != 2 || tr.Phases[0].Name != "challenge" || tr.Phases[1].Name != "info" {
		t.Errorf("phases %+v", tr.Phases)
	}
	ignored := prototest.Ignored(tr)
	if ignored != 1 {
		t.Errorf("%d replies ignored, want the one to another session", ignored)
	}
}

func TestQueryInfoOnly(t *testing.T) {
	t.Parallel()
	f := &fakeServer{t: t, full: vector(t, "full_vanilla")}
	res, _, err := query(t, long, protocols.Settings{}, f.handle)
	if err != nil {
		t.Fatal(err)
	}
	if res.PlayerList != nil || res.Rules != nil || len(res.Info) != 10 || res.Version != "1.20.4" {
		t.Errorf("result %+v", res)
	}
}

func TestQueryBasic(t *testing.T) {
	t.Parallel()
	f := &fakeServer{t: t, full: vector(t, "full_vanilla"), basic: vector(t, "basic")}
	res, _, err := query(t, long, protocols.Settings{Players: true, Options: prototest.OptionsOf(Options{Stat: "basic"})}, f.handle)
	if err != nil {
		t.Fatal(err)
	}
	if res.Name != "Basic Server" || res.Players != protocols.Known(2) || res.PlayerList != nil {
		t.Errorf("result %+v", res)
	}
	if reqs := f.requests(); len(reqs) != 2 || len(reqs[1]) != 11 {
		t.Errorf("requests % x", reqs)
	}
}

// A stat request whose token the server purged gets no answer: the retry redoes
// the handshake with a new session.
func TestQueryStaleToken(t *testing.T) {
	t.Parallel()
	f := &fakeServer{t: t, full: vector(t, "full_vanilla"), stale: true}
	res, _, err := query(t, time.Second, protocols.Settings{Retries: 1}, f.handle)
	if err != nil || res.Name != "Café Craft" {
		t.Fatalf("%+v, %v", res, err)
	}
	reqs := f.requests()
	if len(reqs) != 4 || reqs[2][2] != 0x09 || bytes.Equal(reqs[0][3:7], reqs[2][3:7]) {
		t.Errorf("want handshake, stat, handshake, stat with a new session: % x", reqs)
	}
}

// A datagram cut inside the player list: the server is up, players are flagged.
func TestQueryCutPlayers(t *testing.T) {
	t.Parallel()
	f := &fakeServer{t: t, full: vector(t, "full_cut_name")}
	res, _, err := query(t, long, protocols.Settings{Players: true}, f.handle)
	if err != nil {
		t.Fatal(err)
	}
	if res.Name != "Café Craft" || len(res.PlayerList) != 2 || len(res.PhaseErrors) != 1 || !errors.Is(res.PhaseErrors[0].Err, wire.ErrTruncated) {
		t.Errorf("result %+v", res)
	}
}

func TestQueryFailures(t *testing.T) {
	t.Parallel()
	handshakeThen := func(stat func(session []byte) []byte) prototest.Handler {
		return func(req []byte) [][]byte {
			if req[2] == 0x09 {
				return [][]byte{gamespytest.WithSession([]byte("\x09XXXX1234567\x00"), req[3:7])}
			}
			if b := stat(req[3:7]); b != nil {
				return [][]byte{b}
			}
			return nil
		}
	}
	gamespytest.Failures(t, Protocol, protocols.Settings{Retries: 1}, []gamespytest.Failure{
		{Name: "silent after handshake", D: deadline, H: handshakeThen(func([]byte) []byte { return nil }), Want: wire.ErrTimeout},
		{Name: "other session", D: deadline, H: func([]byte) [][]byte { return [][]byte{[]byte("\x09\x0f\x0f\x0f\x0f1\x00")} }, Want: wire.ErrMismatch},
		{Name: "stat for another session", D: deadline, H: handshakeThen(func([]byte) []byte { return vector(t, "full_vanilla") }), Want: wire.ErrMismatch},
		{Name: "garbage", D: deadline, H: func([]byte) [][]byte { return [][]byte{[]byte("\xff\xff\xff\xffgarbage")} }, Want: wire.ErrMalformed},
		{Name: "bad token", D: long, H: func(req []byte) [][]byte {
			return [][]byte{gamespytest.WithSession([]byte("\x09XXXXabc\x00"), req[3:7])}
		}, Want: wire.ErrChallenge},
		{Name: "cut before anything", D: long, H: handshakeThen(func(s []byte) []byte {
			return gamespytest.WithSession([]byte("\x00XXXXsplitnum\x00\x80\x00hostna"), s)
		}), Want: wire.ErrTruncated},
	})
}

// The handshake's reply is lost: the handshake is re-sent, then the full stat
// request (three sends). Each attempt is a phase of its own. Silence and a closed
// port are failures too.
func TestQuerierContract(t *testing.T) {
	t.Parallel()
	f := &fakeServer{t: t, full: vector(t, "full_vanilla")}
	prototest.QuerierContract(t, prototest.Contract{
		Protocol: Protocol, Name: "gamespy4", DefaultPort: 25565, Transport: "udp",
		Settings: protocols.Settings{Players: true, Rules: true},
		Answer:   f.handle, WantName: "Café Craft", RetryAttempts: 3,
		PhasePerAttempt: true,
	})
}

func TestOptions(t *testing.T) {
	if _, err := Protocol.New(protocols.Settings{Options: prototest.OptionsOf(Options{Stat: "everything"})}); err == nil {
		t.Error("unknown stat accepted")
	}
	for _, s := range []string{"", "full", "basic"} {
		if _, err := Protocol.New(protocols.Settings{Options: prototest.OptionsOf(Options{Stat: s})}); err != nil {
			t.Errorf("stat %q: %v", s, err)
		}
	}
	bad := func(any) error { return errors.New("field nope not found") }
	if _, err := Protocol.New(protocols.Settings{Options: bad}); err == nil {
		t.Error("options error dropped")
	}
}
