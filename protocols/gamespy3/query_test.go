package gamespy3

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

// fakeServer is a GameSpy v3 server: it answers handshakes with token (none when
// token is ""), checks that stat requests carry the token, and answers them with
// reply (indices into packets; nil sends them all in order).
type fakeServer struct {
	t       *testing.T
	token   string // "" ignores handshakes; "0" asks for no challenge
	packets [][]byte
	payload byte // the request's last byte, 0x01 unless JC2-MP
	// order lists the packets to send for the n-th stat request (0-based); the
	// last entry is reused. nil sends every packet in order.
	order [][]int
	// stale ignores the first stat request, as for an expired challenge.
	stale bool
	// demand answers challenge-less stat requests with a challenge reply.
	demand bool

	mu    sync.Mutex
	reqs  [][]byte
	stats int
}

func (f *fakeServer) handle(req []byte) [][]byte {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.reqs = append(f.reqs, req)
	if len(req) < 7 || req[0] != 0xFE || req[1] != 0xFD {
		f.t.Errorf("request % x", req)
		return nil
	}
	session := req[3:7]
	switch req[2] {
	case 0x09:
		if f.token == "" {
			return nil
		}
		return [][]byte{append(append([]byte{0x09}, session...), f.token+"\x00"...)}
	case 0x00:
	default:
		f.t.Errorf("request type 0x%02x", req[2])
		return nil
	}
	want := 11
	if f.token != "" && f.token != "0" {
		want = 15
		n, _ := strconv.ParseInt(f.token, 10, 64)
		if len(req) != want || binary.BigEndian.Uint32(req[7:11]) != uint32(n) {
			if f.demand {
				return [][]byte{append(append([]byte{0x09}, session...), "0\x00"...)}
			}
			f.t.Errorf("stat request % x does not carry token %s", req, f.token)
			return nil
		}
	}
	payload := f.payload
	if payload == 0 {
		payload = 0x01
	}
	if len(req) != want || !bytes.Equal(req[want-4:], []byte{0xFF, 0xFF, 0xFF, payload}) {
		f.t.Errorf("stat request % x, want %d bytes ending ff ff ff %02x", req, want, payload)
		return nil
	}
	n := f.stats
	f.stats++
	if f.stale && n == 0 {
		return nil
	}
	var out [][]byte
	// A stray from another session first: it must be ignored.
	out = append(out, gamespytest.WithSession(f.packets[0], []byte("XXXX")))
	order := []int(nil)
	if len(f.order) > 0 {
		order = f.order[min(n, len(f.order)-1)]
	} else {
		for i := range f.packets {
			order = append(order, i)
		}
	}
	for _, i := range order {
		out = append(out, gamespytest.WithSession(f.packets[i], session))
	}
	return out
}

func (f *fakeServer) requests() [][]byte {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.reqs
}

func query(t *testing.T, d time.Duration, s protocols.Settings, h prototest.Handler) (*protocols.Result, *wire.Trace, error) {
	return prototest.QueryNew(t, Protocol, prototest.UDP(t, h), s, d)
}

func phases(tr *wire.Trace) []string {
	var out []string
	for _, p := range tr.Phases {
		out = append(out, p.Name)
	}
	return out
}

func TestQueryChallengeSplit(t *testing.T) {
	t.Parallel()
	f := &fakeServer{t: t, token: "-1287574694", packets: vector(t, "split3"), order: [][]int{{2, 0, 2, 1}}}
	res, tr, err := query(t, long, protocols.Settings{Players: true, Rules: true}, f.handle)
	if err != nil {
		t.Fatal(err)
	}
	if res.Name != "Split «Test»" || res.Map != "Strike At Karkand" || res.Players != protocols.Known(2) || res.Bots != protocols.Known(1) || res.MaxPlayers != protocols.Known(64) {
		t.Errorf("result %+v", res)
	}
	if len(res.PlayerList) != 3 || res.PlayerList[2].Name != "Charlie" || res.PlayerList[1].Team != "US" || len(res.Rules) != 10 || len(res.PhaseErrors) != 0 {
		t.Errorf("players %+v rules %v errors %v", res.PlayerList, res.Rules, res.PhaseErrors)
	}
	reqs := f.requests()
	if len(reqs) != 2 || len(reqs[0]) != 7 || reqs[0][2] != 0x09 || !bytes.Equal(reqs[1][7:11], []byte{0xb3, 0x41, 0x2b, 0x5a}) ||
		!bytes.Equal(reqs[0][3:7], reqs[1][3:7]) {
		t.Errorf("requests % x", reqs)
	}
	if p := phases(tr); len(p) != 2 || p[0] != "challenge" || p[1] != "info" {
		t.Errorf("phases %v", p)
	}
	notes := map[string]int{}
	for _, p := range tr.Packets {
		if p.Note != "" {
			notes[p.Note]++
		}
	}
	if notes["unexpected reply"] != 1 || notes["duplicate packet"] != 1 {
		t.Errorf("ignored packets %v, want the stray and the duplicate", notes)
	}
}

func TestQueryInfoOnly(t *testing.T) {
	t.Parallel()
	f := &fakeServer{t: t, token: "0", packets: vector(t, "split3")}
	res, _, err := query(t, long, protocols.Settings{}, f.handle)
	if err != nil {
		t.Fatal(err)
	}
	if res.PlayerList != nil || res.Rules != nil || len(res.Info) != 10 || res.Name != "Split «Test»" {
		t.Errorf("result %+v", res)
	}
	if reqs := f.requests(); len(reqs) != 2 || len(reqs[1]) != 11 {
		t.Errorf("token 0 must drop the challenge bytes: % x", reqs)
	}
}

func TestQueryNoChallenge(t *testing.T) {
	t.Parallel()
	f := &fakeServer{t: t, packets: vector(t, "split3")}
	res, _, err := query(t, long, protocols.Settings{Players: true, Options: prototest.OptionsOf(Options{NoChallenge: true})}, f.handle)
	if err != nil || len(res.PlayerList) != 3 {
		t.Fatalf("%+v, %v", res, err)
	}
	if reqs := f.requests(); len(reqs) != 1 || reqs[0][2] != 0x00 {
		t.Errorf("requests % x", reqs)
	}
}

// With no_challenge, a server that answers the stat request with a challenge reply
// gets the handshake after all (qstat's fallback).
func TestQueryChallengeDemanded(t *testing.T) {
	t.Parallel()
	f := &fakeServer{t: t, token: "12345", demand: true, packets: vector(t, "empty_sections")}
	res, tr, err := query(t, long, protocols.Settings{Options: prototest.OptionsOf(Options{NoChallenge: true})}, f.handle)
	if err != nil || res.Name != "Empty" {
		t.Fatalf("%+v, %v", res, err)
	}
	if reqs := f.requests(); len(reqs) != 3 || len(reqs[0]) != 11 || reqs[1][2] != 0x09 || len(reqs[2]) != 15 {
		t.Errorf("requests % x", reqs)
	}
	if len(tr.Entries) == 0 {
		t.Error("no log line about the challenge fallback")
	}
}

// A stat request with an expired token gets no answer: the retry redoes the handshake.
func TestQueryStaleChallenge(t *testing.T) {
	t.Parallel()
	f := &fakeServer{t: t, token: "777", stale: true, packets: vector(t, "empty_sections")}
	res, _, err := query(t, time.Second, protocols.Settings{Retries: 1}, f.handle)
	if err != nil || res.Name != "Empty" {
		t.Fatalf("%+v, %v", res, err)
	}
	reqs := f.requests()
	if len(reqs) != 4 || reqs[2][2] != 0x09 || bytes.Equal(reqs[0][3:7], reqs[2][3:7]) {
		t.Errorf("want handshake, stat, handshake, stat with a new session: % x", reqs)
	}
}

// A lost middle packet: the info is reported before the deadline, players flagged.
func TestQueryMissingPacket(t *testing.T) {
	t.Parallel()
	f := &fakeServer{t: t, token: "0", packets: vector(t, "split3"), order: [][]int{{0, 2}}}
	res, _, err := query(t, long, protocols.Settings{Players: true, Rules: true}, f.handle)
	if err != nil {
		t.Fatal(err)
	}
	if res.Name != "Split «Test»" || res.PlayerList != nil || len(res.PhaseErrors) != 2 {
		t.Fatalf("result %+v", res)
	}
	for _, pe := range res.PhaseErrors {
		if !errors.Is(pe.Err, wire.ErrTruncated) {
			t.Errorf("phase error %v", pe)
		}
	}
}

// With a retry, the second attempt's complete reply wins.
func TestQueryMissingPacketRetried(t *testing.T) {
	t.Parallel()
	f := &fakeServer{t: t, token: "0", packets: vector(t, "split3"), order: [][]int{{1, 2}, {0, 1, 2}}}
	res, _, err := query(t, long, protocols.Settings{Players: true, Retries: 1}, f.handle)
	if err != nil || len(res.PlayerList) != 3 || len(res.PhaseErrors) != 0 {
		t.Fatalf("%+v, %v", res, err)
	}
}

func TestQueryJC2MP(t *testing.T) {
	t.Parallel()
	f := &fakeServer{t: t, token: "99", payload: 0x02, packets: vector(t, "jc2mp")}
	res, _, err := query(t, long, protocols.Settings{Players: true, Options: prototest.OptionsOf(Options{Variant: "jc2mp"})}, f.handle)
	if err != nil || res.Name != "JC2 Test" || len(res.PlayerList) != 2 || res.Rules != nil {
		t.Fatalf("%+v, %v", res, err)
	}
	f = &fakeServer{t: t, token: "99", payload: 0x02, packets: vector(t, "jc2mp_cut")}
	res, _, err = query(t, long, protocols.Settings{Players: true, Options: prototest.OptionsOf(Options{Variant: "jc2mp"})}, f.handle)
	if err != nil || len(res.PlayerList) != 1 || len(res.PhaseErrors) != 1 {
		t.Fatalf("cut: %+v, %v", res, err)
	}
}

func TestQueryFailures(t *testing.T) {
	t.Parallel()
	reply := func(b []byte) prototest.Handler {
		return func(req []byte) [][]byte { return [][]byte{gamespytest.WithSession(b, req[3:7])} }
	}
	gamespytest.Failures(t, Protocol, protocols.Settings{Retries: 1}, []gamespytest.Failure{
		{Name: "other session", D: deadline, H: func([]byte) [][]byte { return [][]byte{[]byte("\x09ABCD0\x00")} }, Want: wire.ErrMismatch},
		{Name: "garbage", D: deadline, H: func([]byte) [][]byte { return [][]byte{[]byte("\xff\xff\xff\xffgarbage")} }, Want: wire.ErrMalformed},
		{Name: "bad token", D: long, H: reply([]byte("\x09XXXXnope\x00")), Want: wire.ErrChallenge},
		{Name: "silent after handshake", D: deadline, H: func(req []byte) [][]byte {
			if req[2] == 0x09 {
				return [][]byte{gamespytest.WithSession([]byte("\x09XXXX0\x00"), req[3:7])}
			}
			return nil
		}, Want: wire.ErrTimeout},
		{Name: "two last", D: long, H: func(req []byte) [][]byte {
			if req[2] == 0x09 {
				return [][]byte{gamespytest.WithSession([]byte("\x09XXXX0\x00"), req[3:7])}
			}
			v := vector(t, "two_last")
			// Packet 1 flagged last, then packet 0 flagged last too.
			return [][]byte{gamespytest.WithSession(v[1], req[3:7]), gamespytest.WithSession(v[0], req[3:7])}
		}, Want: wire.ErrMalformed},
		{Name: "cut before anything", D: long, H: func(req []byte) [][]byte {
			if req[2] == 0x09 {
				return [][]byte{gamespytest.WithSession([]byte("\x09XXXX0\x00"), req[3:7])}
			}
			return [][]byte{gamespytest.WithSession([]byte("\x00XXXXsplitnum\x00\x80\x00hostn"), req[3:7])}
		}, Want: wire.ErrTruncated},
	})
}

// The handshake's reply is lost: the handshake is re-sent, then the stat request
// (three sends). Each attempt is a phase of its own. Silence and a closed port are
// failures too.
func TestQuerierContract(t *testing.T) {
	t.Parallel()
	f := &fakeServer{t: t, token: "-1287574694", packets: vector(t, "split3")}
	prototest.QuerierContract(t, prototest.Contract{
		Protocol: Protocol, Name: "gamespy3", DefaultPort: 29900, Transport: "udp",
		Settings: protocols.Settings{Players: true, Rules: true},
		Answer:   f.handle, WantName: "Split «Test»", RetryAttempts: 3,
		PhasePerAttempt: true,
	})
}

func TestOptions(t *testing.T) {
	if _, err := Protocol.New(protocols.Settings{Options: prototest.OptionsOf(Options{Variant: "bf2"})}); err == nil {
		t.Error("unknown variant accepted")
	}
	bad := func(any) error { return errors.New("field nope not found") }
	if _, err := Protocol.New(protocols.Settings{Options: bad}); err == nil {
		t.Error("options error dropped")
	}
	if _, err := Protocol.New(protocols.Settings{}); err != nil {
		t.Errorf("nil options: %v", err)
	}
}

// TestQueryEncoding: a Cyrillic server's Windows-1251 name reads as such with
// `encoding: windows-1251`, as Windows-1252 without.
func TestQueryEncoding(t *testing.T) {
	t.Parallel()
	cp1251 := []byte{0xCF, 0xF0, 0xE8, 0xE2, 0xE5, 0xF2} // "Привет"
	d := bytes.Replace(vector(t, "empty_sections")[0], []byte("hostname\x00Empty\x00"), append(append([]byte("hostname\x00"), cp1251...), 0), 1)
	for enc, want := range map[string]string{"": "Ïðèâåò", "windows-1251": "Привет"} {
		f := &fakeServer{t: t, token: "0", packets: [][]byte{d}}
		res, _, err := query(t, long, protocols.Settings{Options: prototest.OptionsOf(Options{Encoding: enc})}, f.handle)
		if err != nil {
			t.Fatal(err)
		}
		if res.Name != want || res.Map != "Mesa" {
			t.Errorf("encoding %q: name %q map %q, want %q", enc, res.Name, res.Map, want)
		}
	}
	// The player table too: split3's "[TAG] B\xe9ta" is a Cyrillic й there.
	f := &fakeServer{t: t, token: "-1287574694", packets: vector(t, "split3")}
	res, _, err := query(t, long, protocols.Settings{Players: true, Options: prototest.OptionsOf(Options{Encoding: "windows-1251"})}, f.handle)
	if err != nil || len(res.PlayerList) != 3 || res.PlayerList[1].Name != "[TAG] Bйta" {
		t.Errorf("players %+v, %v", res.PlayerList, err)
	}
	if _, err := Protocol.New(protocols.Settings{Options: prototest.OptionsOf(Options{Encoding: "koi8-r"})}); err == nil {
		t.Error("koi8-r accepted")
	}
}
