package registry

import (
	"bufio"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// codePageRow is a row of CONTRIBUTING's "Text and code pages" table.
type codePageRow struct {
	protocols []string
	decoder   string
}

var backticked = regexp.MustCompile("`([^`]+)`")

// codePageTable reads the table of the "Text and code pages" section.
func codePageTable(t *testing.T) []codePageRow {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "..", "CONTRIBUTING.md"))
	prototest.NoError(t, err)
	defer f.Close()
	var rows []codePageRow
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "## ") {
			in = line == "## Text and code pages"
			continue
		}
		if !in || !strings.HasPrefix(line, "| `") {
			continue
		}
		cells := strings.Split(line, "|")
		if len(cells) < 4 {
			t.Fatalf("row %q: want protocols | decoder | why", line)
		}
		var row codePageRow
		for _, m := range backticked.FindAllStringSubmatch(cells[1], -1) {
			row.protocols = append(row.protocols, m[1])
		}
		row.decoder = strings.TrimSpace(cells[2])
		rows = append(rows, row)
	}
	if len(rows) == 0 {
		t.Fatal("CONTRIBUTING.md has no \"Text and code pages\" table")
	}
	return rows
}

// goSource is the Go source of a folder: its test files when tests, else the others.
func goSource(t *testing.T, dir string, tests bool) string {
	t.Helper()
	var src strings.Builder
	files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") == tests {
			b, err := os.ReadFile(f)
			prototest.NoError(t, err)
			src.Write(b)
		}
	}
	return src.String()
}

// packageSource is the non-test Go source of a protocol's package and of the
// protocols/internal packages it imports.
func packageSource(t *testing.T, name string) string {
	t.Helper()
	src := goSource(t, filepath.Join("..", name), false)
	for _, m := range regexp.MustCompile(`protocols/internal/(\w+)"`).FindAllStringSubmatch(src, -1) {
		src += goSource(t, filepath.Join("..", "internal", m[1]), false)
	}
	return src
}

// TestCodePages holds CONTRIBUTING's code-page table to the code: every
// registered protocol in one row, the decoder the row names used by the
// package (or the internal package it calls), and `encoding:` taken by the
// protocols the row says take it.
func TestCodePages(t *testing.T) {
	registered := map[string]protocols.Protocol{}
	for _, p := range All() {
		registered[p.Name] = p
	}
	seen := map[string]bool{}
	for _, row := range codePageTable(t) {
		for _, name := range row.protocols {
			p, ok := registered[name]
			if !ok {
				t.Errorf("the code-page table names %s, which is not registered", name)
				continue
			}
			if seen[name] {
				t.Errorf("protocol %s is in two rows of the code-page table", name)
			}
			seen[name] = true
			src := packageSource(t, name)
			uses := func(s string) bool { return strings.Contains(src, s) }
			switch d := row.decoder; {
			case strings.HasPrefix(d, "`wire."):
				fn := backticked.FindStringSubmatch(d)[1]
				if !regexp.MustCompile(regexp.QuoteMeta(fn) + `[(),}]`).MatchString(src) {
					t.Errorf("%s: the table says %s, the package does not call it", name, fn)
				}
			case d == "`idtech`":
				if !uses("idtech.") {
					t.Errorf("%s: the table says idtech, the package does not use it", name)
				}
			case d == "UTF-8":
				for _, legacy := range []string{"wire.Latin1(", "wire.Windows1252(", "wire.Windows1251("} {
					if strings.Contains(goSource(t, filepath.Join("..", name), false), legacy) {
						t.Errorf("%s: the table says UTF-8, the package calls %s", name, legacy)
					}
				}
			default:
				fn := backticked.FindStringSubmatch(d)
				if fn == nil || !uses(fn[1]) {
					t.Errorf("%s: the table says %s, not found in the package", name, d)
				}
			}
			if strings.Contains(row.decoder, "`encoding:`") {
				checkEncodingOption(t, p)
			}
			// A game writing a Windows code page keeps a vector with its 0x80-0x9F marks.
			if strings.HasPrefix(row.decoder, "`wire.UTF8`") || strings.HasPrefix(row.decoder, "`wire.Windows1252`") {
				if dir := filepath.Join("..", name); !marksLiteral.MatchString(goSource(t, dir, true)) && !marksVector(dir) {
					t.Errorf("%s: its game writes a Windows code page, and its tests have no vector with bytes 0x80-0x9F (prototest.Marks1252, prototest.MafiaName)", name)
				}
			}
		}
	}
	for name := range registered {
		if !seen[name] {
			t.Errorf("protocol %s: no row in CONTRIBUTING's code-page table: say which code page its game writes", name)
		}
	}
}

// marksLiteral finds the tests' own Windows-1252 strings with the 0x80-0x9F marks.
var marksLiteral = regexp.MustCompile(`prototest\.(Marks1252|MafiaName)`)

// marksVector says whether a vector under dir/testdata holds a byte of 0x80-0x9F:
// a .vec, .hex or .bin file, or a string of a JSON file in ParseHex's format.
func marksVector(dir string) bool {
	marks := func(b []byte, err error) bool {
		return err == nil && slices.ContainsFunc(b, func(c byte) bool { return c >= 0x80 && c <= 0x9F })
	}
	found := false
	filepath.WalkDir(filepath.Join(dir, "testdata"), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || found {
			return nil
		}
		src, err := os.ReadFile(path)
		switch filepath.Ext(path) {
		case ".vec":
			found = marks(prototest.ParseVec(string(src)))
		case ".hex":
			found = marks(prototest.ParseHex(string(src)))
		case ".bin":
			found = marks(src, err)
		case ".json":
			var doc any
			json.Unmarshal(src, &doc)
			found = jsonStrings(doc, func(s string) bool { return marks(prototest.ParseHex(s)) })
		}
		return nil
	})
	return found
}

// jsonStrings says whether f holds for a string in doc.
func jsonStrings(doc any, f func(string) bool) bool {
	switch v := doc.(type) {
	case string:
		return f(v)
	case []any:
		return slices.ContainsFunc(v, func(e any) bool { return jsonStrings(e, f) })
	case map[string]any:
		for _, e := range v {
			if jsonStrings(e, f) {
				return true
			}
		}
	}
	return false
}

// checkEncodingOption: the protocol's block takes `encoding:` with a code page
// wire.Encoding knows and refuses one it does not.
func checkEncodingOption(t *testing.T, p protocols.Protocol) {
	t.Helper()
	with := func(doc string) error {
		_, err := p.New(protocols.Settings{Options: func(v any) error {
			dec := yaml.NewDecoder(strings.NewReader(doc))
			dec.KnownFields(true)
			return dec.Decode(v)
		}})
		return err
	}
	if err := with("encoding: windows-1251"); err != nil {
		t.Errorf("%s: encoding: windows-1251 refused: %v", p.Name, err)
	}
	if err := with("encoding: koi8-r"); err == nil || !strings.Contains(err.Error(), "koi8-r") {
		t.Errorf("%s: encoding: koi8-r not refused by name: %v", p.Name, err)
	}
}
