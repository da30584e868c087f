package prototest

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// ParseVec decodes the escaped vector format of testdata/*.vec files: hex byte
// pairs, "text" for raw bytes with \xNN (one byte) and \c (c itself) escapes inside,
// L"text" for a string prefixed with a length byte that counts itself (All-Seeing
// Eye's strings), and # comments. Unlike ParseHex, a backslash in quotes escapes.
func ParseVec(src string) ([]byte, error) {
	var out []byte
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '#':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case c == '"' || (c == 'L' && i+1 < len(src) && src[i+1] == '"'):
			lp := c == 'L'
			if lp {
				i++
			}
			s, n, err := quoted(src[i:])
			if err != nil {
				return nil, err
			}
			i += n
			if lp {
				out = append(out, byte(len(s)+1))
			}
			out = append(out, s...)
		default:
			if i+2 > len(src) {
				return nil, strconv.ErrSyntax
			}
			v, err := strconv.ParseUint(src[i:i+2], 16, 8)
			if err != nil {
				return nil, err
			}
			out = append(out, byte(v))
			i += 2
		}
	}
	return out, nil
}

// quoted reads a "..." literal at the start of s, returning its bytes and length.
func quoted(s string) ([]byte, int, error) {
	var out []byte
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '"':
			return out, i + 1, nil
		case '\\':
			if i+1 < len(s) && s[i+1] == 'x' && i+4 <= len(s) {
				v, err := strconv.ParseUint(s[i+2:i+4], 16, 8)
				if err != nil {
					return nil, 0, err
				}
				out = append(out, byte(v))
				i += 3
				continue
			}
			if i+1 < len(s) {
				out = append(out, s[i+1])
				i++
				continue
			}
			return nil, 0, strconv.ErrSyntax
		default:
			out = append(out, s[i])
		}
	}
	return nil, 0, strconv.ErrSyntax
}

// VecFile reads and decodes testdata/<name>.vec, failing the test on error.
func VecFile(t testing.TB, name string) []byte {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("testdata", name+".vec"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := ParseVec(string(src))
	if err != nil {
		t.Fatalf("%s.vec: %v", name, err)
	}
	return b
}

// AllVecs returns every testdata/*.vec by name (fuzz seeds, benchmarks).
func AllVecs(t testing.TB) map[string][]byte {
	t.Helper()
	names := Names(t, ".vec")
	out := make(map[string][]byte, len(names))
	for _, name := range names {
		out[name] = VecFile(t, name)
	}
	return out
}
