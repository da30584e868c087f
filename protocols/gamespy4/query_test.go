package gamespy4

import (
	"bytes"
	"encoding/binary"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	gt "github.com/gameserver-exporter/gameserver_exporter/protocols/internal/gamespy/gamespytest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// fakeServer behaves like vanilla's QueryThreadGs4: it issues a token per
// handshake, ignores stat requests without the current token, and tells full from
// basic stat by the request's length alone (15 bytes: full).
type fakeServer struct {
	t           *testing.T
	full, basic []byte
	// stale ignores the first stat request, as for a token purged by the sweep.
	stale bool

	mu sync.Mutex
	gt.Recorder
	tokens map[[4]byte]int32
	issued int32
	stats  int
}

func (f *fakeServer) handle(req []byte) [][]byte {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.Record(req)
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
		return gt.ChallengeReply(req, strconv.Itoa(int(f.issued)))
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
	return [][]byte{gt.WithSession(b, []byte{9, 9, 9, 9}), gt.WithSession(b, session[:])}
}

var all = protocols.Settings{Players: true, Rules: true}

func TestQueryReplies(t *testing.T) {
	t.Parallel()
	vanilla, basic := vector(t, "full_vanilla"), vector(t, "basic")
	for _, tc := range []struct {
		name      string
		f         *fakeServer
		s         protocols.Settings
		d         time.Duration
		want, req string
	}{
		// The reply to another session is skipped; the full stat request is
		// padded with four zero bytes.
		{"full", &fakeServer{full: vanilla, basic: basic}, all, gt.Long, `"Café Craft" "world" "MINECRAFT" "1.20.4" 3/20 bots ? pw 0 [Notch jeb_ Dinnerbone] rules 10 info 10 partial [] | challenge:ok,info:ok skipped 1 log 0`, "09/7A 00/15A"},
		{"info only", &fakeServer{full: vanilla}, protocols.Settings{}, gt.Long, `"Café Craft" "world" "MINECRAFT" "1.20.4" 3/20 bots ? pw 0 - rules - info 10 partial [] | challenge:ok,info:ok skipped 1 log 0`, "09/7A 00/15A"},
		{"basic", &fakeServer{full: vanilla, basic: basic}, protocols.Settings{Players: true, Options: prototest.OptionsOf(Options{Stat: "basic"})}, gt.Long, `"Basic Server" "world" "SMP" "" 2/20 bots ? pw 0 - rules - info 7 partial [] | challenge:ok,info:ok skipped 1 log 0`, "09/7A 00/11A"},
		// A stat request whose token the server purged gets no answer: the
		// retry redoes the handshake with a new session.
		{"stale token", &fakeServer{full: vanilla, stale: true}, protocols.Settings{Retries: 1}, time.Second, `"Café Craft" "world" "MINECRAFT" "1.20.4" 3/20 bots ? pw 0 - rules - info 10 partial [] | challenge:ok,info:timeout,challenge:ok,info:ok skipped 1 log 1`, "09/7A 00/15A 09/7B 00/15B"},
		// A datagram cut inside the player list: the server is up, players are flagged.
		{"cut players", &fakeServer{full: vector(t, "full_cut_name")}, protocols.Settings{Players: true}, gt.Long, `"Café Craft" "world" "MINECRAFT" "1.20.4" 3/20 bots ? pw 0 [Notch jeb_] rules - info 10 partial [players:truncated] | challenge:ok,info:ok skipped 1 log 1`, "09/7A 00/15A"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.f.t = t
			res, tr, err := prototest.QueryNew(t, Protocol, prototest.UDP(t, tc.f.handle), tc.s, tc.d)
			prototest.CheckProbe(t, res, tr, err, tc.want)
			reqs := tc.f.Requests()
			if got := gt.Requests(reqs); got != tc.req || len(reqs[1]) == 15 && !bytes.Equal(reqs[1][11:], []byte{0, 0, 0, 0}) {
				t.Errorf("requests %s (% x), want %s", got, reqs, tc.req)
			}
		})
	}
}

func TestQueryFailures(t *testing.T) {
	t.Parallel()
	gt.Failures(t, Protocol, protocols.Settings{Retries: 1}, []gt.Failure{
		{Name: "silent after handshake", D: gt.Short, H: gt.Serve("1234567"), Want: wire.ErrTimeout},
		{Name: "other session", D: gt.Short, H: func([]byte) [][]byte { return [][]byte{[]byte("\x09\x0f\x0f\x0f\x0f1\x00")} }, Want: wire.ErrMismatch},
		{Name: "stat for another session", D: gt.Short, H: gt.HandshakeThen("1234567", func([]byte) [][]byte { return [][]byte{vector(t, "full_vanilla")} }), Want: wire.ErrMismatch},
		{Name: "garbage", D: gt.Short, H: func([]byte) [][]byte { return [][]byte{[]byte("\xff\xff\xff\xffgarbage")} }, Want: wire.ErrMalformed},
		{Name: "bad token", D: gt.Long, H: func(req []byte) [][]byte {
			return [][]byte{gt.WithSession([]byte("\x09XXXXabc\x00"), req[3:7])}
		}, Want: wire.ErrChallenge},
		{Name: "cut before anything", D: gt.Long, H: gt.Serve("1234567", []byte("\x00XXXXsplitnum\x00\x80\x00hostna")), Want: wire.ErrTruncated},
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

func TestOptionsErrors(t *testing.T) {
	prototest.OptionsErrors(t, Protocol, prototest.BadOptions{"stat: everything": `stat "everything"`})
	for _, s := range []string{"", "full", "basic"} {
		prototest.MustNew(t, Protocol, protocols.Settings{Options: prototest.OptionsOf(Options{Stat: s})})
	}
}

// TestQstat queries one fake vanilla-like server with quakestat -gs4 and with the
// Querier. quakestat sends the handshake (FE FD 09 10 20 30 40), then a 20-byte
// key-list request (… 06 01 06 05 08 0A 04 00 00), which vanilla answers with the
// basic stat because it is not 15 bytes long; the Querier asks for the full stat.
// quakestat needs a challenge reply of at least 12 bytes and drops bytes above 0x7F
// from its output, so the token has 7 digits and the names are ASCII.
func TestQstat(t *testing.T) {
	full := bytes.Replace(vector(t, "full_vanilla"), []byte("\xa7aCaf\xe9 \xa7lCraft\xa7r "), []byte("Cafe Craft"), 1)
	basic := bytes.Replace(vector(t, "basic"), []byte("\xa7cBasic \xa7fServer"), []byte("Cafe Craft"), 1)
	basic = bytes.Replace(basic, []byte("\x002\x0020\x00"), []byte("\x003\x0020\x00"), 1) // same counts as full
	var challenge []byte
	addr := prototest.UDP(t, func(req []byte) [][]byte {
		switch {
		case len(req) == 7 && req[2] == 0x09:
			challenge = []byte{0x00, 0x91, 0x29, 0x5B}
			return gt.ChallengeReply(req, "9513307")
		case len(req) < 11 || req[2] != 0x00 || !bytes.Equal(req[7:11], challenge):
			t.Logf("request % x not answered", req)
			return nil
		case len(req) == 15:
			return [][]byte{gt.WithSession(full, req[3:7])}
		}
		return [][]byte{gt.WithSession(basic, req[3:7])}
	})
	res, qs := prototest.QstatQuery(t, "-gs4", addr, Protocol, protocols.Settings{Players: true})
	if qs.Game != "SMP" {
		t.Errorf("qstat gametype %q", qs.Game)
	}
	// With -P quakestat asks for the full stat (FF FF FF 01 as the 4 padding bytes,
	// 15 bytes in all) and lists the players.
	out := string(prototest.Qstat(t, "-raw", ",", "-P", "-gs4", addr.String()))
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 1+len(res.PlayerList) || !strings.Contains(lines[0], ",Cafe Craft,world,20,3,") {
		t.Fatalf("quakestat -P output %q", out)
	}
	for i, p := range res.PlayerList {
		if !strings.HasPrefix(lines[len(lines)-1-i], p.Name+",") && !strings.HasPrefix(lines[1+i], p.Name+",") {
			t.Errorf("player %q not listed by quakestat: %q", p.Name, out)
		}
	}
}

func BenchmarkQuery(b *testing.B) {
	prototest.QueryBench(b, Protocol, protocols.Settings{Players: true, Rules: true}, prototest.UDP(b, gt.Serve("9513307", vector(b, "full_vanilla"))))
}
