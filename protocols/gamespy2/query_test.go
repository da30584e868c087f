package gamespy2

import (
	"bytes"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	gt "github.com/gameserver-exporter/gameserver_exporter/protocols/internal/gamespy/gamespytest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
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
	gt.Recorder
}

func (f *fakeServer) handle(req []byte) [][]byte {
	f.Record(req)
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

var all = protocols.Settings{Players: true, Rules: true}

func TestQueryReplies(t *testing.T) {
	t.Parallel()
	v := vector(t, "halo_like")
	one := vector(t, "all_in_one")[0]
	info1251 := bytes.Replace(v[0], []byte("Test \xabHalo\xbb"), prototest.MafiaName, 1)
	players1251 := bytes.Replace(v[1], []byte("Alpha"), []byte{0xCF, 0xF0, 0xE8, 0xE2, 0xE5, 0xF2}, 1) // "Привет"
	players := protocols.Settings{Players: true}
	for _, tc := range []struct {
		name          string
		s             protocols.Settings
		d             time.Duration
		info, players []byte
		want          string
		requests      int
	}{
		{"info and players", all, gt.Long, v[0], v[1], `"Test «Halo»" "bloodgulch" "CTF" "01.00.10.0621" 3/16 bots ? pw 2 [Alpha Béta Gamma] rules 8 info 8 partial [] | info:ok,players:ok skipped 2 log 0`, 2},
		{"info only", protocols.Settings{}, gt.Long, v[0], v[1], `"Test «Halo»" "bloodgulch" "CTF" "01.00.10.0621" 3/16 bots ? pw 2 - rules - info 8 partial [] | info:ok skipped 1 log 0`, 1},
		// A server that ignores the flags sends its tables with the info: no second request.
		{"unasked tables", all, gt.Long, one, one, `"All" "m" "" "" 1/8 bots ? pw 0 [Solo] rules 4 info 4 partial [] | info:ok skipped 1 log 0`, 1},
		{"players silent", players, time.Second, v[0], nil, `"Test «Halo»" "bloodgulch" "CTF" "01.00.10.0621" 3/16 bots ? pw 2 - rules - info 8 partial [players:timeout] | info:ok,players:timeout skipped 1 log 0`, 2},
		{"players cut row", players, gt.Long, v[0], vector(t, "cut_row")[0], `"Test «Halo»" "bloodgulch" "CTF" "01.00.10.0621" 3/16 bots ? pw 2 [A B] rules - info 8 partial [players:truncated] | info:ok,players:truncated skipped 2 log 0`, 2},
		{"players no table", players, gt.Long, v[0], []byte("\x00CORX\x00"), `"Test «Halo»" "bloodgulch" "CTF" "01.00.10.0621" 3/16 bots ? pw 2 - rules - info 8 partial [players:truncated] | info:ok,players:truncated skipped 2 log 0`, 2},
		// A cut info reply that still names the server is reported, rules flagged.
		{"info cut", protocols.Settings{Rules: true}, gt.Long, vector(t, "cut_kv")[0], nil, `"Cut" "dm1" "" "" 4/? bots ? pw 0 - rules 3 info 3 partial [rules:truncated] | info:ok skipped 1 log 1`, 1},
		// Halo, SWAT 4 and Battlefield Vietnam are Windows games: names that are
		// not UTF-8 read as Windows-1252 (0x80-0x9F marks included), or as
		// Windows-1251 with `encoding: windows-1251`.
		{"windows-1252", players, gt.Long, info1251, players1251, `"Empire Bay – „Cash & Cars“ €5 VIP" "bloodgulch" "CTF" "01.00.10.0621" 3/16 bots ? pw 2 [Ïðèâåò Béta Gamma] rules - info 8 partial [] | info:ok,players:ok skipped 2 log 0`, 2},
		{"windows-1251", protocols.Settings{Players: true, Options: prototest.OptionsOf(Options{Encoding: prototest.CodePage(t, "windows-1251")})}, gt.Long, info1251, players1251,
			`"Empire Bay – „Cash & Cars“ Ђ5 VIP" "bloodgulch" "CTF" "01.00.10.0621" 3/16 bots ? pw 2 [Привет Bйta Gamma] rules - info 8 partial [] | info:ok,players:ok skipped 2 log 0`, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := &fakeServer{t: t, info: tc.info, players: tc.players}
			res, tr, err := prototest.QueryNew(t, Protocol, prototest.UDP(t, f.handle), tc.s, tc.d)
			prototest.CheckProbe(t, res, tr, err, tc.want)
			reqs := f.Requests()
			if len(reqs) != tc.requests || len(reqs) == 2 && bytes.Equal(reqs[0][3:7], reqs[1][3:7]) {
				t.Errorf("requests % x, want %d with their own ids", reqs, tc.requests)
			}
		})
	}
}

func TestQueryFailures(t *testing.T) {
	t.Parallel()
	gt.Failures(t, Protocol, protocols.Settings{Retries: 1}, []gt.Failure{
		{Name: "other id", D: gt.Short, H: func([]byte) [][]byte { return [][]byte{[]byte("\x00ABCD\x00")} }, Want: wire.ErrMismatch},
		{Name: "garbage", D: gt.Short, H: func([]byte) [][]byte { return [][]byte{[]byte("\xff\xff\xff\xffgarbage")} }, Want: wire.ErrMalformed},
		{Name: "header only", D: gt.Long, H: func(req []byte) [][]byte { return [][]byte{withID([]byte("\x00XXXX"), req)} }, Want: wire.ErrTruncated},
		{Name: "cut before anything", D: gt.Long, H: func(req []byte) [][]byte { return [][]byte{withID([]byte("\x00XXXXhostn"), req)} }, Want: wire.ErrTruncated},
		{Name: "too many columns", D: gt.Long, H: func(req []byte) [][]byte { return [][]byte{withID(vector(t, "too_many_columns")[0], req)} }, Want: wire.ErrTooLarge},
	})
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

func TestOptionsErrors(t *testing.T) {
	prototest.OptionsErrors(t, Protocol, prototest.BadOptions{"encoding: koi8-r": `gamespy2 options: unknown encoding "koi8-r"`})
}

// TestQstat queries one fake server with quakestat -gs2 (which asks every section in
// one request, flags FF FF FF) and with the Querier (info, then players and teams).
func TestQstat(t *testing.T) {
	info := []byte("\x00XXXXhostname\x00Cross Check [EU]\x00gamever\x0001.00.10.0621\x00hostport\x002302\x00" +
		"maxplayers\x0016\x00password\x000\x00mapname\x00bloodgulch\x00numplayers\x002\x00gametype\x00CTF\x00\x00")
	players := []byte("\x02player_\x00score_\x00ping_\x00team_\x00\x00Alpha\x005\x0040\x000\x00Bravo\x001\x0080\x001\x00\x00" +
		"\x02team_t\x00score_t\x00\x00Red\x005\x00Blue\x001\x00")
	addr := prototest.UDP(t, func(req []byte) [][]byte {
		if len(req) != 10 {
			return nil
		}
		var b []byte
		if req[7] == 0xFF {
			b = append(b, info...)
		} else {
			b = append(b, info[:headerLen]...)
			b = append(b, 0) // empty K/V section
		}
		if req[8] == 0xFF {
			b = append(b, players...)
		}
		return [][]byte{withID(b, req)}
	})
	res, _ := prototest.QstatQuery(t, "-gs2", addr, Protocol, protocols.Settings{Players: true})
	if len(res.PlayerList) != 2 || res.PlayerList[1].Team != "Blue" {
		t.Errorf("players %+v", res.PlayerList)
	}
}

func BenchmarkQuery(b *testing.B) {
	v := vector(b, "halo_like")
	addr := prototest.UDP(b, func(req []byte) [][]byte {
		if req[8] == 0xFF {
			return [][]byte{withID(v[1], req)}
		}
		return [][]byte{withID(v[0], req)}
	})
	prototest.QueryBench(b, Protocol, protocols.Settings{Players: true, Rules: true}, addr)
}
