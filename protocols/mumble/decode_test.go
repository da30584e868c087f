package mumble

import (
	"errors"
	"path/filepath"
	"slices"
	"testing"
	"unicode/utf8"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

const vecIdent = 0x0102030405060708

type want struct {
	version               string
	users, max, bandwidth int64
	trailing              int
}

func check(t *testing.T, st *status, w want) {
	t.Helper()
	res := st.Result(true)
	if res.Version != w.version || res.Players != protocols.Known(w.users) || res.MaxPlayers != protocols.Known(w.max) ||
		int64(st.Bandwidth) != w.bandwidth || st.Trailing != w.trailing || res.Game != game {
		t.Errorf("got %s %+v/%+v bw %d trailing %d, want %+v", res.Version, res.Players, res.MaxPlayers, st.Bandwidth, st.Trailing, w)
	}
	// The ping counts connected users and knows no bots.
	if res.Name != "" || res.Map != "" || res.Bots.Known || res.Password != protocols.FlagUnknown {
		t.Errorf("fields the ping does not report are set: %+v", res)
	}
	if len(res.Rules) != 1 || res.Rules[0].Key != "bandwidth" {
		t.Errorf("rules %+v", res.Rules)
	}
}

func TestDecodeVectors(t *testing.T) {
	for _, tc := range []struct {
		file string
		want want
	}{
		{"reply_1_3_4.hex", want{"1.3.4", 5, 50, 72000, 0}},
		{"reply_1_5_patch_capped.hex", want{"1.5.255", 12, 100, 558000, 0}},
		{"reply_wide_major.hex", want{"256.1.2", 0, 1, 0, 0}},
		{"reply_big_counts.hex", want{"1.4.0", 1 << 31, 1<<32 - 1, 1<<32 - 1, 0}},
		{"reply_trailing.hex", want{"1.3.4", 1, 2, 3, 2}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			st, err := decode(prototest.HexFile(t, tc.file), vecIdent)
			prototest.NoError(t, err)
			check(t, st, tc.want)
		})
	}
}

func TestDecodeErrors(t *testing.T) {
	for _, tc := range []struct {
		file string
		want error
	}{
		{"reply_short.hex", wire.ErrTruncated},
		{"reply_runt.hex", wire.ErrTruncated},
		{"reply_wrong_ident.hex", wire.ErrMismatch},
		{"request.hex", wire.ErrTruncated}, // our own ping reflected back: 12 bytes
	} {
		t.Run(tc.file, func(t *testing.T) {
			if st, err := decode(prototest.HexFile(t, tc.file), vecIdent); !errors.Is(err, tc.want) || st != nil {
				t.Errorf("%+v, %v; want %v", st, err, tc.want)
			}
		})
	}
	if _, err := decode(nil, 0); !errors.Is(err, wire.ErrTruncated) {
		t.Errorf("empty: %v", err)
	}
}

func TestRequest(t *testing.T) {
	if got, want := request(vecIdent), prototest.HexFile(t, "request.hex"); !slices.Equal(got, want) {
		t.Errorf("Request = % X, want % X", got, want)
	}
}

// TestRealworld decodes murmurd 1.3.4's replies recorded in shared/realworld
// (users=50, no one connected, default bandwidth 72000): the capture script's own
// ping ("RWPROBE1") and qstat's and gamedig's (identifier 01..08).
func TestRealworld(t *testing.T) {
	for _, tc := range []struct{ req, resp string }{
		{"mumble_mumble_mumble-ping.req.bin", "mumble_mumble_mumble-ping.resp.bin"},
		{"exchanges/mumble_mumble_qstat/00_c2s_udp_34461-64738.bin", "exchanges/mumble_mumble_qstat/01_s2c_udp_64738-34461.bin"},
		{"exchanges/mumble_mumble_gamedig/00_c2s_udp_40690-64738.bin", "exchanges/mumble_mumble_gamedig/01_s2c_udp_64738-40690.bin"},
	} {
		t.Run(filepath.Base(tc.resp), func(t *testing.T) {
			req := prototest.Capture(t, tc.req)
			if len(req) != requestLen || !slices.Equal(req[:4], []byte{0, 0, 0, 0}) {
				t.Fatalf("captured request % X", req)
			}
			ident := uint64(0)
			for _, c := range req[4:] {
				ident = ident<<8 | uint64(c)
			}
			if !slices.Equal(request(ident), req) {
				t.Errorf("Request(%x) = % X, captured % X", ident, request(ident), req)
			}
			st, err := decode(prototest.Capture(t, tc.resp), ident)
			prototest.NoError(t, err)
			// qstat shows version 1.2.3 for this reply; gamedig and the server say 1.3.4.
			check(t, st, want{"1.3.4", 0, 50, 72000, 0})
		})
	}
}

func FuzzDecode(f *testing.F) {
	for _, b := range prototest.HexFiles(f) {
		f.Add(b, uint64(vecIdent))
	}
	for _, b := range prototest.Captures("mumble_mumble_mumble-ping.resp.bin") {
		f.Add(b, uint64(0x525750524f424531)) // "RWPROBE1"
	}
	f.Fuzz(func(t *testing.T, b []byte, ident uint64) {
		st, err := decode(b, ident)
		if err != nil {
			return
		}
		if len(b) < replyLen || st.Ident != ident || st.Trailing != len(b)-replyLen {
			t.Fatalf("accepted %d bytes as %+v", len(b), st)
		}
		if res := st.Result(true); !utf8.ValidString(res.Version) || !res.Players.Known || res.Players.Value < 0 {
			t.Fatalf("result %+v", res)
		}
	})
}

func BenchmarkDecode(b *testing.B) {
	prototest.DecodeBench(b, prototest.HexFile(b, "reply_1_3_4.hex"), func(v []byte) error {
		st, err := decode(v, vecIdent)
		if err == nil {
			_ = st.Result(false)
		}
		return err
	})
}
