package doom3

import (
	"encoding/binary"
	"encoding/hex"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// parseVector turns an annotated test vector into bytes. Tokens: hex digit pairs
// ("ffff", "29000100"), Go-quoted strings ("si_name", "\xe9"), and @size, which
// becomes the u32 LE count of the bytes after it (ET:QW's size field). '#' starts a
// comment.
func parseVector(t testing.TB, src string) []byte {
	t.Helper()
	var out []byte
	sizeAt := -1
	for ln, line := range strings.Split(src, "\n") {
		for s := strings.TrimSpace(line); s != ""; s = strings.TrimSpace(s) {
			switch {
			case s[0] == '#':
				s = ""
			case s[0] == '"':
				end := 1
				for end < len(s) && s[end] != '"' {
					if s[end] == '\\' {
						end++
					}
					end++
				}
				if end >= len(s) {
					t.Fatalf("line %d: unterminated string", ln+1)
				}
				str, err := strconv.Unquote(s[:end+1])
				if err != nil {
					t.Fatalf("line %d: %v", ln+1, err)
				}
				out = append(out, str...)
				s = s[end+1:]
			case strings.HasPrefix(s, "@size"):
				if sizeAt >= 0 {
					t.Fatalf("line %d: second @size", ln+1)
				}
				sizeAt = len(out)
				out = append(out, 0, 0, 0, 0)
				s = s[len("@size"):]
			default:
				end := strings.IndexAny(s, " \t#\"")
				if end < 0 {
					end = len(s)
				}
				b, err := hex.DecodeString(s[:end])
				if err != nil {
					t.Fatalf("line %d: token %q: %v", ln+1, s[:end], err)
				}
				out = append(out, b...)
				s = s[end:]
			}
		}
	}
	if sizeAt >= 0 {
		binary.LittleEndian.PutUint32(out[sizeAt:], uint32(len(out)-sizeAt-4))
	}
	return out
}

// vector reads testdata/<name>.hex.
func vector(t testing.TB, name string) []byte {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("testdata", name+".hex"))
	if err != nil {
		t.Fatal(err)
	}
	return parseVector(t, string(src))
}

// vectorNames lists every testdata/*.hex vector.
func vectorNames(t testing.TB) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "*.hex"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no test vectors in testdata: %v", err)
	}
	var names []string
	for _, f := range files {
		names = append(names, strings.TrimSuffix(filepath.Base(f), ".hex"))
	}
	return names
}
