package hexen2

import (
	"bytes"
	"errors"
	"reflect"
	"testing"
	"unicode/utf8"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// The own test vectors in testdata/*.vec are escaped hex built from
// the engine's net_dgrm.c layouts (format: prototest.ParseVec).

func known(v int64) protocols.Count { return protocols.Known(v) }

func TestRequests(t *testing.T) {
	// qstat's h2_serverinfo: 80 00 00 0E 02 "HEXENII" 00 04.
	if want := []byte("\x80\x00\x00\x0E\x02HEXENII\x00\x04"); !bytes.Equal(serverInfoRequest, want) {
		t.Errorf("server info request % X, want % X", serverInfoRequest, want)
	}
	if got, want := playerRequest(3), []byte{0x80, 0, 0, 6, 3, 3}; !bytes.Equal(got, want) {
		t.Errorf("player request % X, want % X", got, want)
	}
	if got, want := ruleRequest("sv_gravity"), append([]byte{0x80, 0, 0, 16, 4}, "sv_gravity\x00"...); !bytes.Equal(got, want) {
		t.Errorf("rule request % X, want % X", got, want)
	}
}

func TestDecodeServerInfo(t *testing.T) {
	tests := []struct {
		vec       string
		skip, err error
		want      *serverInfo
	}{
		{vec: "info", want: &serverInfo{Address: "127.0.0.1:26900", Name: "Castle of the Dragon", Map: "demo1", Players: 2, Max: 16, Protocol: 4}},
		{vec: "short_info", err: wire.ErrTruncated},
		{vec: "bad_length", err: wire.ErrMalformed},
		{vec: "not_control", skip: wire.ErrMalformed},
		{vec: "reject", err: wire.ErrServer},
		{vec: "rule_end", skip: wire.ErrMalformed}, // another op code
	}
	for _, tc := range tests {
		t.Run(tc.vec, func(t *testing.T) {
			body, skip, err := answer(prototest.VecFile(t, tc.vec), repServerInfo)
			if err == nil && skip == nil {
				var s *serverInfo
				s, err = decodeServerInfo(body)
				if err == nil && !reflect.DeepEqual(s, tc.want) {
					t.Errorf("got %+v, want %+v", s, tc.want)
				}
			}
			if !errors.Is(skip, tc.skip) || (tc.skip == nil) != (skip == nil) {
				t.Errorf("skip = %v, want %v", skip, tc.skip)
			}
			if !errors.Is(err, tc.err) || (tc.err == nil) != (err == nil) {
				t.Errorf("err = %v, want %v", err, tc.err)
			}
		})
	}
	if _, _, err := answer(prototest.VecFile(t, "reject"), repServerInfo); err == nil || !bytes.Contains([]byte(err.Error()), []byte("Server is full.")) {
		t.Errorf("reject reason not in %v", err)
	}
}

func TestDecodePlayer(t *testing.T) {
	for vec, want := range map[string]player{
		"player0": {Index: 0, Name: "Paladin", Colours: 0x23, Frags: 17, Seconds: 754},
		"player1": {Index: 1, Name: "Necro01", Frags: -3, Seconds: 60},
	} {
		b := prototest.VecFile(t, vec)
		p, err := decodePlayer(b)
		prototest.NoError(t, err)
		if *p != want {
			t.Errorf("%s: %+v, want %+v", vec, *p, want)
		}
	}
	cut := prototest.VecFile(t, "player0")[:12]
	if _, err := decodePlayer(cut); !errors.Is(err, wire.ErrTruncated) {
		t.Errorf("cut player: %v", err)
	}
}

func TestDecodeRule(t *testing.T) {
	body, _, err := answer(prototest.VecFile(t, "rule_maxspeed"), repRuleInfo)
	prototest.NoError(t, err)
	if kv, ok, err := decodeRule(body); err != nil || !ok || kv != (protocols.KV{Key: "sv_maxspeed", Value: "640"}) {
		t.Errorf("rule %+v %v %v", kv, ok, err)
	}
	body, _, _ = answer(prototest.VecFile(t, "rule_end"), repRuleInfo)
	if _, ok, err := decodeRule(body); ok || err != nil {
		t.Errorf("end of rules: %v %v", ok, err)
	}
	if _, _, err := decodeRule([]byte("name-without-end")); !errors.Is(err, wire.ErrTruncated) {
		t.Errorf("cut rule: %v", err)
	}
}

// No real Hexen II capture is committed: the seeds are the own vectors. Each input
// goes through the three reply decoders the querier uses.
func FuzzDecode(f *testing.F) {
	for _, b := range prototest.AllVecs(f) {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if body, skip, err := answer(b, repServerInfo); skip == nil && err == nil {
			if s, err := decodeServerInfo(body); err == nil {
				res := s.result()
				for _, v := range []string{res.Name, res.Map, res.Version} {
					if !utf8.ValidString(v) {
						t.Fatalf("invalid UTF-8 %q", v)
					}
				}
			}
		}
		if _, skip, err := answer(b, repPlayerInfo); skip == nil && err == nil {
			c := bytes.Clone(b)
			if p, err := decodePlayer(c); err == nil && !utf8.ValidString(p.result().Name) {
				t.Fatalf("invalid UTF-8 player %q", p.Name)
			}
			if len(c) != len(b) {
				t.Fatalf("the address blanking resized the datagram")
			}
		}
		if body, skip, err := answer(b, repRuleInfo); skip == nil && err == nil {
			if kv, ok, err := decodeRule(body); err == nil && ok && (!utf8.ValidString(kv.Key) || !utf8.ValidString(kv.Value)) {
				t.Fatalf("invalid UTF-8 rule %q", kv)
			}
		}
	})
}

func BenchmarkDecode(b *testing.B) {
	prototest.DecodeBench(b, prototest.VecFile(b, "info"), func(info []byte) error {
		body, _, err := answer(info, repServerInfo)
		if err == nil {
			var s *serverInfo
			if s, err = decodeServerInfo(body); err == nil {
				s.result()
			}
		}
		return err
	})
}
