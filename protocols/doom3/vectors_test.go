package doom3

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// vector reads testdata/<name>.hex, an annotated vector in prototest.ParseVec's
// format where @size stands for the u32 LE count of the bytes after it (ET:QW's
// size field).
func vector(t testing.TB, name string) []byte {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("testdata", name+".hex"))
	if err != nil {
		t.Fatal(err)
	}
	head, tail, sized := strings.Cut(string(src), "@size")
	b, err := prototest.ParseVec(head)
	rest, err2 := prototest.ParseVec(tail)
	if err != nil || err2 != nil {
		t.Fatalf("%s: %v %v", name, err, err2)
	}
	if sized {
		b = binary.LittleEndian.AppendUint32(b, uint32(len(rest)))
	}
	return append(b, rest...)
}

// vectorNames lists every testdata/*.hex vector.
func vectorNames(t testing.TB) []string { return prototest.Names(t, ".hex") }
