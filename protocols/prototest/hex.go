package prototest

import (
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// ParseHex decodes an annotated hex vector, the format of the protocols' own test
// vectors in testdata/: '#' starts a comment, "text" is literal bytes, anything else
// is hex, in pairs or runs ("ff ff", "ffff").
func ParseHex(src string) ([]byte, error) {
	var out []byte
	for n, line := range strings.Split(src, "\n") {
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		for line = strings.TrimSpace(line); line != ""; line = strings.TrimSpace(line) {
			if line[0] == '"' {
				end := strings.IndexByte(line[1:], '"')
				if end < 0 {
					return nil, fmt.Errorf("line %d: unterminated string", n+1)
				}
				out = append(out, line[1:end+1]...)
				line = line[end+2:]
				continue
			}
			word, rest, _ := strings.Cut(line, " ")
			if i := strings.IndexByte(word, '\t'); i >= 0 {
				word, rest = word[:i], word[i+1:]+" "+rest
			}
			b, err := hex.DecodeString(word)
			if err != nil {
				return nil, fmt.Errorf("line %d: %v", n+1, err)
			}
			out = append(out, b...)
			line = rest
		}
	}
	return out, nil
}

// HexFile reads and decodes testdata/<name>, failing the test on error.
func HexFile(t testing.TB, name string) []byte {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	b, err := ParseHex(string(src))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return b
}
