package goldsrc

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// seed adds every own vector and, when ../shared is there, every real capture.
func seed(f *testing.F) {
	for _, b := range prototest.HexFiles(f) {
		f.Add(b)
	}
	if dir := prototest.SharedDir(); dir != "" {
		names, _ := filepath.Glob(filepath.Join(dir, "fixtures", "goldsrc", "*.bin"))
		for _, n := range names {
			if b, err := os.ReadFile(n); err == nil {
				f.Add(b)
			}
		}
	}
}

// checkResult asserts what every decoded Result must satisfy.
func checkResult(t *testing.T, res *protocols.Result) {
	for _, s := range []string{res.Name, res.Map, res.Game, res.Version} {
		if !utf8.ValidString(s) {
			t.Fatalf("invalid UTF-8 %q", s)
		}
	}
	for _, c := range []protocols.Count{res.Players, res.MaxPlayers, res.Bots} {
		if c.Value < 0 {
			t.Fatalf("negative count %+v", res)
		}
	}
	checkKV(t, res.Info)
}

func FuzzDecodeReply(f *testing.F) {
	seed(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		res, err := decodeInfoReply(b)
		if err != nil {
			if res != nil {
				t.Fatal("result with error")
			}
			return
		}
		checkResult(t, res)
	})
}

func FuzzDecodeInfo(f *testing.F) {
	seed(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		in, err := decodeCInfo(b)
		if err != nil {
			return
		}
		if in.Trailing < 0 || in.Trailing > len(b) {
			t.Fatalf("trailing %d of %d bytes", in.Trailing, len(b))
		}
		checkResult(t, in.Result())
	})
}

func FuzzDecodeInfoString(f *testing.F) {
	seed(f)
	f.Add([]byte("\xFF\xFF\xFF\xFFinfostringresponse\x00\\a\\b\\\\\\c"))
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := decodeInfoString(b)
		if err != nil {
			return
		}
		if len(s.KV) > maxInfoKeys {
			t.Fatalf("%d pairs", len(s.KV))
		}
		for _, kv := range s.KV {
			if strings.ContainsRune(kv.Key, '\\') || strings.ContainsRune(kv.Value, '\\') {
				t.Fatalf("separator in pair %q", kv)
			}
		}
		checkResult(t, s.Result())
	})
}

func FuzzDecodePlayersRules(f *testing.F) {
	seed(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		if pl, err := decodePlayers(b, nil); err == nil {
			for _, p := range pl {
				if !utf8.ValidString(p.Name) || p.DurationKnown && p.Duration < 0 {
					t.Fatalf("player %+v", p)
				}
			}
		}
		if rl, err := decodeRules(b); err == nil {
			for _, kv := range rl {
				if !utf8.ValidString(kv.Key) || !utf8.ValidString(kv.Value) {
					t.Fatalf("rule %q", kv)
				}
			}
		}
	})
}
