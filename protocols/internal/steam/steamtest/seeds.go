package steamtest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// Seeds returns every datagram of testdata/*.hex and, when ../shared is
// there, of the real captures under fixtures/<dir> for each of dirs, grouped
// by message (a split set's fragments together, in order).
func Seeds(f *testing.F, dirs ...string) [][][]byte {
	var out [][][]byte
	hexes, _ := filepath.Glob(filepath.Join("testdata", "*.hex"))
	for _, h := range hexes {
		switch key, frag, split := strings.Cut(filepath.Base(h), ".frag"); {
		case !split:
			out = append(out, [][]byte{prototest.HexFile(f, filepath.Base(h))})
		case strings.HasPrefix(frag, "0."):
			out = append(out, Frags(f, key))
		}
	}
	if s := prototest.SharedDir(); s != "" {
		for _, dir := range dirs {
			d := filepath.Join(s, "fixtures", dir)
			if _, err := os.Stat(d); err != nil {
				continue
			}
			for _, fx := range Fixtures(f, d) {
				out = append(out, fx.Datagrams)
			}
		}
	}
	return out
}
