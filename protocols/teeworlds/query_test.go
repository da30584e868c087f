package teeworlds

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"path"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

const fakeServerToken = 0x0e724c45

// body07 is a v07 vector's info after the echoed browser token.
func body07(t testing.TB, file string) []byte {
	b := prototest.HexFile(t, file)[connlessHeader07+len(infoMagic):]
	p := reader{r: wire.NewReader(b)}
	p.int("token")
	return p.r.Rest()
}

// body06 is a v06 vector's info after the echoed token string.
func body06(t testing.TB, file string) []byte {
	b := prototest.HexFile(t, file)[len(connlessHeader06)+len(infoMagic):]
	_, rest, _ := bytes.Cut(b, []byte{0})
	return rest
}

// fake is a Teeworlds server: 0.7 (token handshake), 0.6, or both (DDNet).
type fake struct {
	body07, body06 []byte
	dropTokens     atomic.Int32 // token requests to ignore first
	wrongEcho      bool         // answer inf3 with another browser token
	strays         [][]byte     // sent before every answer
}

func (f *fake) handle(req []byte) [][]byte {
	var reply []byte
	switch {
	case f.body06 != nil && len(req) == 15 && bytes.HasPrefix(req, append(append([]byte(nil), connlessHeader06...), getInfo...)):
		reply = append(append(append([]byte(nil), connlessHeader06...), infoMagic...), fmt.Sprintf("%d\x00", req[14])...)
		reply = append(reply, f.body06...)
	case f.body07 != nil && len(req) == 520 && req[0] == 0x04 && req[7] == ctrlToken:
		if f.dropTokens.Add(-1) >= 0 {
			return nil
		}
		reply = []byte{0x04, 0, 0, 0, 0, 0, 0, ctrlToken, 0, 0, 0, 0}
		copy(reply[3:7], req[8:12])
		binary.BigEndian.PutUint32(reply[8:], fakeServerToken)
	case f.body07 != nil && len(req) > 17 && req[0] == 0x21:
		if binary.BigEndian.Uint32(req[1:]) != fakeServerToken || !bytes.Equal(req[9:17], getInfo) {
			return nil // what the real server does with a bad token
		}
		p := reader{r: wire.NewReader(req[17:])}
		echo := int32(p.int("token"))
		if f.wrongEcho {
			echo++
		}
		reply = append([]byte{0x21}, req[5:9]...)
		reply = binary.BigEndian.AppendUint32(reply, fakeServerToken)
		reply = appendInt(append(reply, infoMagic...), echo)
		reply = append(reply, f.body07...)
	default:
		return nil
	}
	return append(append([][]byte(nil), f.strays...), reply)
}

func settings(version string, retries int) protocols.Settings {
	return protocols.Settings{Players: true, Retries: retries, Options: func(v any) error { v.(*Options).Version = version; return nil }}
}

func query(t *testing.T, s protocols.Settings, d time.Duration, f *fake) (*protocols.Result, *wire.Trace, error) {
	t.Helper()
	addr := prototest.UDP(t, f.handle)
	return prototest.QueryNew(t, Protocol, addr, s, d)
}

// A probe reports what its server's vector decodes to, in each mode that
// reaches the server: 0.7 after the token handshake; 0.6 in one request, which
// auto mode sends beside the token request.
func TestQueryVectors(t *testing.T) {
	prototest.HexVectors(t, func(t *testing.T, b []byte, w want) {
		if w.Error != "" {
			return // TestQueryErrors
		}
		name := path.Base(t.Name()) + ".hex"
		f, modes := &fake{body07: body07(t, name)}, map[string]string{versionAuto: "challenge,info", version07: "challenge,info"}
		if w.Proto == "0.6" {
			f, modes = &fake{body06: body06(t, name)}, map[string]string{versionAuto: "challenge", version06: "info"}
		}
		for version, phases := range modes {
			t.Run(version, func(t *testing.T) {
				res, tr, err := query(t, settings(version, 0), 2*time.Second, f)
				in, _ := decodeVector(b)
				prototest.CheckProbe(t, res, tr, err, prototest.ProbeLine(in.Result(true), nil, nil)+" | "+strings.ReplaceAll(phases, ",", ":ok,")+":ok")
			})
		}
	})
}

// A DDNet-like server answering both: auto mode takes the first answer.
func TestQueryAutoBoth(t *testing.T) {
	res, _, err := query(t, settings(versionAuto, 0), 2*time.Second,
		&fake{body07: body07(t, "v07_players.hex"), body06: body06(t, "v06_players.hex")})
	if err != nil || (res.Name != "Tee Arena" && res.Name != "Fake 0.6 Server") {
		t.Fatalf("%+v %v", res, err)
	}
}

// In auto mode against a 0.7 server, the token reply is lost: 0.6 and token
// requests are re-sent together, then the info request follows (five sends). A
// silent server gets both requests up to 3 times, in one "challenge" phase.
func TestQuerierContract(t *testing.T) {
	f := &fake{body07: body07(t, "v07_empty.hex")}
	prototest.QuerierContract(t, prototest.Contract{
		Protocol: Protocol, Name: "teeworlds", DefaultPort: 8303, Transport: "udp",
		Settings: settings(versionAuto, 0),
		Answer:   f.handle, WantName: "RealWorld-like Teeworlds",
		RetryDeadline: 900 * time.Millisecond, RetryAttempts: 5,
		SilentAttempts: [2]int{2, 6},
	})
}

// In 0.7 mode, a lost token reply: token twice, then info.
func TestQueryRetriesLostToken07(t *testing.T) {
	f := &fake{body07: body07(t, "v07_empty.hex")}
	f.dropTokens.Store(1)
	res, tr, err := query(t, settings(version07, 2), 900*time.Millisecond, f)
	if err != nil || res.Name != "RealWorld-like Teeworlds" {
		t.Fatalf("%+v %v", res, err)
	}
	if tr.Attempts != 3 {
		t.Errorf("attempts %d, want 3", tr.Attempts)
	}
}

// Strays before each answer (junk, a reply to another token, a 0.6 reply to
// another token string) are skipped; errors end the probe in their phase.
func TestQueryReplies(t *testing.T) {
	strays := [][]byte{{1, 2, 3}, prototest.HexFile(t, "v07_empty.hex"), append(append([]byte(nil), connlessHeader06...), "\xff\xff\xff\xffinf3999\x00"...)}
	for _, tc := range []struct {
		name, version string
		f             *fake
		want          string
	}{
		{"strays", versionAuto, &fake{body07: body07(t, "v07_players.hex"), strays: strays}, `"Tee Arena" "ctf5" "CTF" "0.7.5" 3/64 bots 1 pw 2 [nameless tee Watcher Bot Ünïcödé ☃] rules - info 12 partial [] | challenge:ok,info:ok skipped 6 log 6`},
		{"silence_06", version06, &fake{}, `error timeout | info:timeout`},
		{"0.7_server_in_0.6_mode", version06, &fake{body07: body07(t, "v07_empty.hex")}, `error timeout | info:timeout`},
		{"0.6_server_in_0.7_mode", version07, &fake{body06: body06(t, "v06_empty.hex")}, `error timeout | challenge:timeout`},
		{"wrong_echo", version07, &fake{body07: body07(t, "v07_empty.hex"), wrongEcho: true}, `error mismatch | challenge:ok,info:mismatch`},
		{"info_truncated", versionAuto, &fake{body07: body07(t, "v07_bad_client_cut.hex")}, `error truncated | challenge:ok,info:truncated`},
		{"info_long_int", versionAuto, &fake{body07: body07(t, "v07_bad_long_int.hex")}, `error malformed | challenge:ok,info:malformed`},
		{"info06_bad_number", versionAuto, &fake{body06: body06(t, "v06_bad_number.hex")}, `error malformed | challenge:ok`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := 300 * time.Millisecond
			if tc.f.strays != nil {
				d = 2 * time.Second
			}
			res, tr, err := query(t, settings(tc.version, 0), d, tc.f)
			prototest.CheckProbe(t, res, tr, err, tc.want)
		})
	}
	t.Run("closed_port_is_refused", func(t *testing.T) {
		for _, v := range []string{version06, version07} { // auto: in the contract
			q, _ := newQuerier(settings(v, 1))
			if _, err := q.Query(prototest.Context(t, 2*time.Second), protocols.At(prototest.ClosedUDPPort(t)), nil); !errors.Is(err, wire.ErrRefused) {
				t.Errorf("%s: err = %v, want refused", v, err)
			}
		}
	})
}

func TestNewOptions(t *testing.T) {
	prototest.OptionsErrors(t, Protocol, prototest.BadOptions{`version: "0.8"`: "version"})
	q := prototest.MustNew(t, Protocol, protocols.Settings{Retries: 2}).(*querier)
	if q.version != versionAuto || q.retries != 2 {
		t.Errorf("%+v", q)
	}
}

// TestQstat06 queries one fake 0.6 server with quakestat -tees and with the
// Querier. qstat sends gie, gie2 and gie3 (token 0); the fake answers gie3.
// qstat's numplayers/maxplayers are the in-game players and player slots,
// which the Querier keeps in info (its Players/MaxPlayers count clients, as
// the game's browser does). qstat misreads 0.6 client entries, so names are
// not compared.
func TestQstat06(t *testing.T) {
	prototest.NeedQstat(t)
	f := &fake{body06: body06(t, "v06_players.hex")}
	addr := prototest.UDP(t, f.handle)
	qs := prototest.QstatJSON(t, "-tees", addr)
	res, _ := prototest.QueryOK(t, Protocol, addr, settings(version06, 0), 2*time.Second)
	info := prototest.InfoOf(res)
	if qs.Status != "online" || qs.Name != res.Name || qs.Map != res.Map || qs.Game != res.Game {
		t.Errorf("qstat %+v, querier %q %q %q", qs, res.Name, res.Map, res.Game)
	}
	if strconv.Itoa(qs.NumPlayers) != info["num_players"] || strconv.Itoa(qs.MaxPlayers) != info["max_players"] {
		t.Errorf("qstat %d/%d, querier info %s/%s", qs.NumPlayers, qs.MaxPlayers, info["num_players"], info["max_players"])
	}
}

// BenchmarkQuery is the full 0.7 exchange (token, then info) over loopback.
func BenchmarkQuery(b *testing.B) {
	f := &fake{body07: body07(b, "v07_players.hex")}
	prototest.QueryBench(b, Protocol, settings(version07, 0), prototest.UDP(b, f.handle))
}
