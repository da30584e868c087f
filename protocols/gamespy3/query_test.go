package gamespy3

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"slices"
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

	mu sync.Mutex
	gt.Recorder
	stats int
}

func (f *fakeServer) handle(req []byte) [][]byte {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.Record(req)
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
		return gt.ChallengeReply(req, f.token)
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
				return gt.ChallengeReply(req, "0")
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
	out = append(out, gt.WithSession(f.packets[0], []byte("XXXX")))
	order := []int(nil)
	if len(f.order) > 0 {
		order = f.order[min(n, len(f.order)-1)]
	} else {
		for i := range f.packets {
			order = append(order, i)
		}
	}
	for _, i := range order {
		out = append(out, gt.WithSession(f.packets[i], session))
	}
	return out
}

var (
	all     = protocols.Settings{Players: true, Rules: true}
	players = protocols.Settings{Players: true}
)

func opts(s protocols.Settings, o Options) protocols.Settings {
	s.Options = prototest.OptionsOf(o)
	return s
}

func TestQueryReplies(t *testing.T) {
	t.Parallel()
	split3, empty, jc2 := vector(t, "split3"), vector(t, "empty_sections"), Options{Variant: "jc2mp"}
	mafia := bytes.Replace(empty[0], []byte("Empty"), prototest.MafiaName, 1)
	for _, tc := range []struct {
		name      string
		f         *fakeServer
		s         protocols.Settings
		d         time.Duration
		want, req string
	}{
		// The stray of another session and the duplicate are skipped.
		{"challenge split", &fakeServer{token: "-1287574694", packets: split3, order: [][]int{{2, 0, 2, 1}}}, all, gt.Long,
			`"Split «Test»" "Strike At Karkand" "battlefield2" "1.5.3153-802.0" 2/64 bots 1 pw 2 [Alpha [TAG] Béta Charlie] rules 10 info 10 partial [] | challenge:ok,info:ok skipped 2 log 0`, "09/7A 00/15A"},
		// Token 0 drops the challenge bytes.
		{"info only", &fakeServer{token: "0", packets: split3}, protocols.Settings{}, gt.Long,
			`"Split «Test»" "Strike At Karkand" "battlefield2" "1.5.3153-802.0" 2/64 bots 1 pw 2 - rules - info 10 partial [] | challenge:ok,info:ok skipped 1 log 0`, "09/7A 00/11A"},
		{"no challenge", &fakeServer{packets: split3}, opts(players, Options{NoChallenge: true}), gt.Long,
			`"Split «Test»" "Strike At Karkand" "battlefield2" "1.5.3153-802.0" 2/64 bots 1 pw 2 [Alpha [TAG] Béta Charlie] rules - info 10 partial [] | info:ok skipped 1 log 0`, "00/11A"},
		// With no_challenge, a server that answers the stat request with a
		// challenge reply gets the handshake after all (qstat's fallback), logged.
		{"challenge demanded", &fakeServer{token: "12345", demand: true, packets: empty}, opts(protocols.Settings{}, Options{NoChallenge: true}), gt.Long,
			`"Empty" "Mesa" "PowerStruggle" "1.1.1.6156" 0/18 bots ? pw 1 - rules - info 7 partial [] | challenge:ok,info:ok skipped 1 log 1`, "00/11A 09/7A 00/15A"},
		// A stat request with an expired token gets no answer: the retry redoes
		// the handshake with a new session.
		{"stale challenge", &fakeServer{token: "777", stale: true, packets: empty}, protocols.Settings{Retries: 1}, time.Second,
			`"Empty" "Mesa" "PowerStruggle" "1.1.1.6156" 0/18 bots ? pw 1 - rules - info 7 partial [] | challenge:ok,info:timeout,challenge:ok,info:ok skipped 1 log 1`, "09/7A 00/15A 09/7B 00/15B"},
		// A lost middle packet: the info is reported before the deadline, players flagged.
		{"missing packet", &fakeServer{token: "0", packets: split3, order: [][]int{{0, 2}}}, all, gt.Long, `"Split «Test»" "Strike At Karkand" "battlefield2" "1.5.3153-802.0" 3/64 bots ? pw 2 - rules 7 info 7 partial [players:truncated rules:truncated] | challenge:ok,info:truncated skipped 1 log 1`, "09/7A 00/11A"},
		// With a retry, the second attempt's complete reply wins.
		{"missing packet retried", &fakeServer{token: "0", packets: split3, order: [][]int{{1, 2}, {0, 1, 2}}}, protocols.Settings{Players: true, Retries: 1}, gt.Long, `"Split «Test»" "Strike At Karkand" "battlefield2" "1.5.3153-802.0" 2/64 bots 1 pw 2 [Alpha [TAG] Béta Charlie] rules - info 10 partial [] | challenge:ok,info:truncated,challenge:ok,info:ok skipped 2 log 1`, ""},
		{"jc2mp", &fakeServer{token: "99", payload: 0x02, packets: vector(t, "jc2mp")}, opts(players, jc2), gt.Long, `"JC2 Test" "" "" "913" 2/500 bots ? pw 1 [Rico κöρεcικ] rules - info 5 partial [] | challenge:ok,info:ok skipped 1 log 0`, "09/7A 00/15A"},
		{"jc2mp cut", &fakeServer{token: "99", payload: 0x02, packets: vector(t, "jc2mp_cut")}, opts(players, jc2), gt.Long, `"JC2 Test" "" "" "913" 2/500 bots ? pw 1 [Rico] rules - info 5 partial [players:truncated] | challenge:ok,info:ok skipped 1 log 0`, "09/7A 00/15A"},
		// Battlefield 2 and Crysis are Windows games: a name that is not UTF-8 is
		// Windows-1252 (its 0x80-0x9F marks included), or Windows-1251 with
		// `encoding: windows-1251`; split3's "[TAG] B\xe9ta" is a Cyrillic й there.
		{"windows-1252", &fakeServer{token: "0", packets: [][]byte{mafia}}, protocols.Settings{}, gt.Long, `"Empire Bay – „Cash & Cars“ €5 VIP" "Mesa" "PowerStruggle" "1.1.1.6156" 0/18 bots ? pw 1 - rules - info 7 partial [] | challenge:ok,info:ok skipped 1 log 0`, "09/7A 00/11A"},
		{"windows-1251", &fakeServer{token: "0", packets: [][]byte{mafia}}, opts(protocols.Settings{}, Options{Encoding: prototest.CodePage(t, "windows-1251")}), gt.Long, `"Empire Bay – „Cash & Cars“ Ђ5 VIP" "Mesa" "PowerStruggle" "1.1.1.6156" 0/18 bots ? pw 1 - rules - info 7 partial [] | challenge:ok,info:ok skipped 1 log 0`, "09/7A 00/11A"},
		{"windows-1251 players", &fakeServer{token: "-1287574694", packets: split3}, opts(players, Options{Encoding: prototest.CodePage(t, "windows-1251")}), gt.Long, `"Split «Test»" "Strike At Karkand" "battlefield2" "1.5.3153-802.0" 2/64 bots 1 pw 2 [Alpha [TAG] Bйta Charlie] rules - info 10 partial [] | challenge:ok,info:ok skipped 1 log 0`, "09/7A 00/15A"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := tc.f
			f.t = t
			res, tr, err := prototest.QueryNew(t, Protocol, prototest.UDP(t, f.handle), tc.s, tc.d)
			prototest.CheckProbe(t, res, tr, err, tc.want)
			if got := gt.Requests(f.Requests()); tc.req != "" && got != tc.req {
				t.Errorf("requests %s, want %s", got, tc.req)
			}
			if tc.name == "challenge split" && fmt.Sprint(tr.Packets[3].Note, tr.Packets[6].Note) != "unexpected replyduplicate packet" {
				t.Errorf("packets %+v, want the stray and the duplicate skipped", tr.Packets)
			}
		})
	}
}

func TestQueryFailures(t *testing.T) {
	t.Parallel()
	reply := func(b []byte) prototest.Handler {
		return func(req []byte) [][]byte { return [][]byte{gt.WithSession(b, req[3:7])} }
	}
	two := vector(t, "two_last")
	gt.Failures(t, Protocol, protocols.Settings{Retries: 1}, []gt.Failure{
		{Name: "other session", D: gt.Short, H: func([]byte) [][]byte { return [][]byte{[]byte("\x09ABCD0\x00")} }, Want: wire.ErrMismatch},
		{Name: "garbage", D: gt.Short, H: func([]byte) [][]byte { return [][]byte{[]byte("\xff\xff\xff\xffgarbage")} }, Want: wire.ErrMalformed},
		{Name: "bad token", D: gt.Long, H: reply([]byte("\x09XXXXnope\x00")), Want: wire.ErrChallenge},
		{Name: "silent after handshake", D: gt.Short, H: gt.Serve("0"), Want: wire.ErrTimeout},
		// Packet 1 flagged last, then packet 0 flagged last too.
		{Name: "two last", D: gt.Long, H: gt.Serve("0", two[1], two[0]), Want: wire.ErrMalformed},
		{Name: "cut before anything", D: gt.Long, H: gt.Serve("0", []byte("\x00XXXXsplitnum\x00\x80\x00hostn")), Want: wire.ErrTruncated},
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

func TestOptionsErrors(t *testing.T) {
	prototest.OptionsErrors(t, Protocol, prototest.BadOptions{"variant: bf2": `variant "bf2"`, "encoding: koi8-r": "koi8-r",
		"{variant: jc2mp, encoding: windows-1251}": "does not apply to variant jc2mp"})
}

// TestQstat queries one fake server with quakestat -gs3 -P and with the Querier.
// quakestat sends FE FD 00 10 20 30 40 FF FF FF 01 at once (no handshake); the
// Querier first sends the handshake, which this server answers with token "0" as
// Battlefield 2 does. The reply is the 3-packet split3 vector, in order.
func TestQstat(t *testing.T) {
	v := vector(t, "split3")
	// quakestat's JSON output drops bytes above 0x7F: keep the name ASCII.
	v[0] = bytes.Replace(bytes.Replace(v[0], []byte{0xab}, []byte("<"), 1), []byte{0xbb}, []byte(">"), 1)
	addr := prototest.UDP(t, gt.Serve("0", v...))
	qs := prototest.QstatJSON(t, "-gs3", addr, "-P")
	if qs.Status != "online" {
		t.Fatalf("qstat: %+v", qs)
	}
	q, _ := Protocol.New(protocols.Settings{Players: true})
	res, err := q.Query(prototest.Context(t, gt.Long), protocols.At(addr), nil)
	prototest.NoError(t, err)
	// qstat counts bots as players: humans + bots is its count.
	if res.Name != qs.Name || res.Map != qs.Map || res.Players.Value+res.Bots.Value != int64(qs.NumPlayers) || res.MaxPlayers.Value != int64(qs.MaxPlayers) {
		t.Errorf("querier %q %q %v+%v bots/%v, qstat %q %q %d/%d", res.Name, res.Map, res.Players, res.Bots, res.MaxPlayers,
			qs.Name, qs.Map, qs.NumPlayers, qs.MaxPlayers)
	}
	// Players from -raw output (one "name,score,ping,team,..." line each, in
	// reverse order, names untrimmed): same scores, pings and 1-based team names.
	raw := strings.Split(strings.TrimSpace(string(prototest.Qstat(t, "-raw", ",", "-P", "-gs3", addr.String()))), "\n")
	var got, want []string
	for _, line := range raw[1:] {
		f := strings.Split(line, ",")
		if len(f) < 4 || strings.Contains(f[0], "TAG") { // qstat mangles the Latin-1 é
			continue
		}
		want = append(want, strings.Join([]string{strings.TrimSpace(f[0]), f[1], f[2], f[3]}, ","))
	}
	for _, p := range res.PlayerList {
		if !strings.Contains(p.Name, "TAG") {
			got = append(got, fmt.Sprintf("%s,%d,%d,%s", p.Name, p.Score.Value, p.Ping.Value, p.Team))
		}
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) || len(got) != 2 {
		t.Errorf("players %q, qstat %q", got, want)
	}
}

func BenchmarkQuery(b *testing.B) {
	prototest.QueryBench(b, Protocol, protocols.Settings{Players: true, Rules: true}, prototest.UDP(b, gt.Serve("123456", vector(b, "split3")...)))
}
