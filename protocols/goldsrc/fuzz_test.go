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

// seeds is every own vector and, when ../shared is there, every real capture.
// The fuzz targets hold every Result to prototest.FuzzResults and checkKV.
func seeds(f *testing.F) [][]byte {
	out := prototest.HexFiles(f)
	if dir := prototest.SharedDir(); dir != "" {
		names, _ := filepath.Glob(filepath.Join(dir, "fixtures", "goldsrc", "*.bin"))
		for _, n := range names {
			if b, err := os.ReadFile(n); err == nil {
				out = append(out, b)
			}
		}
	}
	return out
}

func FuzzDecodeReply(f *testing.F) {
	prototest.FuzzResults(f, seeds(f), func(t *testing.T, b []byte) *protocols.Result {
		res, err := decodeInfoReply(b)
		if err != nil && res != nil {
			t.Fatal("result with error")
		}
		if res != nil {
			checkKV(t, res.Info)
		}
		return res
	})
}

func FuzzDecodeInfo(f *testing.F) {
	prototest.FuzzResults(f, seeds(f), func(t *testing.T, b []byte) *protocols.Result {
		in, err := decodeCInfo(b)
		if err != nil {
			return nil
		}
		if in.Trailing < 0 || in.Trailing > len(b) {
			t.Fatalf("trailing %d of %d bytes", in.Trailing, len(b))
		}
		res := in.Result()
		checkKV(t, res.Info)
		return res
	})
}

func FuzzDecodeInfoString(f *testing.F) {
	seeds := append(seeds(f), []byte("\xFF\xFF\xFF\xFFinfostringresponse\x00\\a\\b\\\\\\c"))
	prototest.FuzzResults(f, seeds, func(t *testing.T, b []byte) *protocols.Result {
		s, err := decodeInfoString(b)
		if err != nil {
			return nil
		}
		if len(s.KV) > maxInfoKeys {
			t.Fatalf("%d pairs", len(s.KV))
		}
		for _, kv := range s.KV {
			if strings.ContainsRune(kv.Key, '\\') || strings.ContainsRune(kv.Value, '\\') {
				t.Fatalf("separator in pair %q", kv)
			}
		}
		res := s.Result()
		checkKV(t, res.Info)
		return res
	})
}

func FuzzDecodePlayersRules(f *testing.F) {
	for _, b := range seeds(f) {
		f.Add(b)
	}
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
