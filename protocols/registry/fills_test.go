package registry

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// What each protocol fills is read from its code, type-checked: the fields of
// protocols.Result and protocols.Player it assigns (in its package, and in the
// functions of protocols/internal it calls). The README's tables are held to it.

const modulePath = "github.com/gameserver-exporter/gameserver_exporter/"

// listedPkg is what go list says of a package.
type listedPkg struct {
	ImportPath, Dir, Export string
	GoFiles                 []string
}

// fills is what a protocol's code sets: by type ("Result", "Player"), the
// fields it assigns.
type fills map[string]map[string]bool

func (f fills) result(field string) bool { return f["Result"][field] }

// protocolFills type-checks every protocol package and returns, by protocol
// name, the Result and Player fields its code sets.
func protocolFills(t *testing.T) map[string]fills {
	t.Helper()
	cmd := exec.Command("go", "list", "-export", "-deps", "-json=ImportPath,Dir,Export,GoFiles", "../...")
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Skipf("go list -export: %v", err)
	}
	pkgs := map[string]listedPkg{}
	for dec := json.NewDecoder(strings.NewReader(string(out))); dec.More(); {
		var p listedPkg
		prototest.NoError(t, dec.Decode(&p))
		pkgs[p.ImportPath] = p
	}
	fset := token.NewFileSet()
	imp := importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) {
		p, ok := pkgs[path]
		if !ok || p.Export == "" {
			return nil, fmt.Errorf("no export data for %s", path)
		}
		return os.Open(p.Export)
	})

	// Per function (declared in a protocol or internal package): the fields it
	// sets and the functions it refers to.
	type fn struct {
		fields map[string][]string // by type, as fills
		calls  []*types.Func
	}
	// Keyed by full name: a package imported from export data has objects of
	// its own, not those of its type-checked source.
	funcs := map[string]*fn{}
	declared := map[string][]*types.Func{} // package path -> its functions
	check := func(path string) {
		p := pkgs[path]
		var files []*ast.File
		for _, f := range p.GoFiles {
			af, err := parser.ParseFile(fset, filepath.Join(p.Dir, f), nil, 0)
			prototest.NoError(t, err)
			files = append(files, af)
		}
		info := &types.Info{Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{},
			Selections: map[*ast.SelectorExpr]*types.Selection{}, Types: map[ast.Expr]types.TypeAndValue{}}
		if _, err := (&types.Config{Importer: imp}).Check(path, fset, files, info); err != nil {
			t.Fatalf("type-checking %s: %v", path, err)
		}
		// kind says whether t is protocols.Result or protocols.Player.
		kind := func(t types.Type) string {
			if p, ok := t.(*types.Pointer); ok {
				t = p.Elem()
			}
			if n, ok := t.(*types.Named); ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == modulePath+"protocols" {
				return n.Obj().Name()
			}
			return ""
		}
		for _, f := range files {
			for _, d := range f.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || fd.Body == nil {
					continue
				}
				obj := info.Defs[fd.Name].(*types.Func)
				declared[path] = append(declared[path], obj)
				rec := &fn{fields: map[string][]string{}}
				funcs[obj.FullName()] = rec
				add := func(k, field string) {
					if k == "Result" || k == "Player" {
						rec.fields[k] = append(rec.fields[k], field)
					}
				}
				set := func(e ast.Expr) {
					if se, ok := ast.Unparen(e).(*ast.SelectorExpr); ok {
						if s, ok := info.Selections[se]; ok && s.Kind() == types.FieldVal {
							add(kind(s.Recv()), se.Sel.Name)
						}
					}
				}
				ast.Inspect(fd.Body, func(n ast.Node) bool {
					switch n := n.(type) {
					case *ast.AssignStmt:
						for _, l := range n.Lhs {
							set(l)
						}
					case *ast.UnaryExpr:
						if n.Op == token.AND {
							set(n.X)
						}
					case *ast.CompositeLit:
						for _, el := range n.Elts {
							if kv, ok := el.(*ast.KeyValueExpr); ok {
								if id, ok := kv.Key.(*ast.Ident); ok {
									add(kind(info.Types[n].Type), id.Name)
								}
							}
						}
					case *ast.Ident:
						if f, ok := info.Uses[n].(*types.Func); ok {
							rec.calls = append(rec.calls, f)
						}
					}
					return true
				})
			}
		}
	}
	for path := range pkgs {
		if strings.HasPrefix(path, modulePath+"protocols/internal/") {
			check(path)
		}
	}
	out2 := map[string]fills{}
	for _, p := range All() {
		path := modulePath + "protocols/" + p.Name
		check(path)
		got := fills{"Result": {}, "Player": {}}
		seen := map[string]bool{}
		var walk func(f *types.Func)
		walk = func(f *types.Func) {
			name := f.Origin().FullName()
			if seen[name] {
				return
			}
			seen[name] = true
			rec, ok := funcs[name]
			if !ok {
				return // outside the protocol and internal packages
			}
			for k, fields := range rec.fields {
				for _, f := range fields {
					got[k][f] = true
				}
			}
			for _, c := range rec.calls {
				walk(c)
			}
		}
		for _, f := range declared[path] {
			walk(f)
		}
		out2[p.Name] = got
	}
	return out2
}

// fillsRow is a protocol's row of the README's "What each protocol fills" table.
func fillsRow(name string, f fills) string {
	yes := func(b bool) string {
		if b {
			return "yes"
		}
		return "–"
	}
	var pf []string
	for _, c := range []struct{ field, label string }{
		{"Name", "name"}, {"Score", "score"}, {"Ping", "ping"}, {"Duration", "time"}, {"Team", "team"}, {"Bot", "bot"},
	} {
		if f["Player"][c.field] {
			pf = append(pf, c.label)
		}
	}
	players := "–"
	if len(pf) > 0 {
		players = strings.Join(pf, ", ")
	}
	return fmt.Sprintf("| `%s` | %s | %s | %s | %s | %s | %s |", name,
		yes(f.result("Players")), yes(f.result("Bots")), yes(f.result("Password")),
		yes(f.result("Uptime") || f.result("Started")), yes(f.result("MapTime")), players)
}

// readmeSection returns the lines of README.md from the heading through the
// next heading.
func readmeSection(t *testing.T, heading string) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	prototest.NoError(t, err)
	var out []string
	in := false
	for line := range strings.Lines(string(b)) {
		line = strings.TrimRight(line, "\n")
		if strings.HasPrefix(line, "#") {
			if in {
				break
			}
			in = line == heading
		}
		if in {
			out = append(out, line)
		}
	}
	if out == nil {
		t.Fatalf("README.md has no %q section", heading)
	}
	return out
}

// TestReadmeFills: the README's "What each protocol fills" table is what the
// code fills, row for row (the failure prints the table to paste), and its
// start-time table names exactly the protocols that set a start time.
func TestReadmeFills(t *testing.T) {
	all := protocolFills(t)
	var names []string
	for n := range all {
		names = append(names, n)
	}
	slices.Sort(names)
	want := []string{
		"| module | players | bots | password | start time | map start time | player fields (`players: true`) |",
		"|---|---|---|---|---|---|---|",
	}
	for _, n := range names {
		want = append(want, fillsRow(n, all[n]))
	}
	var got []string
	for _, l := range readmeSection(t, "### What each protocol fills") {
		if strings.HasPrefix(l, "|") {
			got = append(got, l)
		}
	}
	for i := range max(len(got), len(want)) {
		if g, w := append(got, "")[min(i, len(got))], append(want, "")[min(i, len(want))]; g != w {
			t.Errorf("README row %d:\n  is     %s\n  should %s\nthe table from the code:\n%s", i, g, w, strings.Join(want, "\n"))
			break
		}
	}

	// The protocol table's "fills" column names bots and the password flag
	// where the code sets them, and only there ("as a2s" is a2s's cell).
	cellOf := map[string]string{}
	for _, l := range readmeSection(t, "## Protocols") {
		cells := strings.Split(strings.ReplaceAll(l, `\|`, "/"), "|") // a cell's escaped \| is no border
		if !strings.HasPrefix(l, "| `") || len(cells) != 7 {
			continue
		}
		name, _, _ := strings.Cut(strings.TrimPrefix(strings.TrimSpace(cells[1]), "`"), "`")
		cellOf[name] = strings.ToLower(cells[4])
	}
	for _, n := range names {
		cell, ok := cellOf[n]
		if !ok {
			t.Errorf("%s: no row in the README's protocol table", n)
			continue
		}
		if as, ok := strings.CutPrefix(strings.TrimSpace(cell), "as "); ok {
			cell = cellOf[strings.Trim(as, "`")]
		}
		for _, c := range []struct{ field, word string }{{"Bots", "bots"}, {"Password", "password"}} {
			if strings.Contains(cell, c.word) != all[n].result(c.field) {
				t.Errorf("%s: the README's protocol table says %q of %s, the code sets it: %v", n, cell, c.word, all[n].result(c.field))
			}
		}
	}

	// The start-time table: a row per protocol that sets a start time, its
	// map-start column filled where the protocol sets one.
	rows := map[string][]string{}
	for _, l := range readmeSection(t, "## Metrics") {
		if !strings.HasPrefix(l, "| `") || !strings.Contains(l, "every other protocol") && len(strings.Split(l, "|")) != 5 {
			continue
		}
		cells := strings.Split(l, "|")
		name, _, _ := strings.Cut(strings.TrimPrefix(strings.TrimSpace(cells[1]), "`"), "`")
		rows[name] = cells
	}
	for _, n := range names {
		f := all[n]
		start, mapStart := f.result("Uptime") || f.result("Started"), f.result("MapTime")
		cells, listed := rows[n]
		switch {
		case start && !listed:
			t.Errorf("%s sets a start time: the README's start-time table needs its row", n)
		case !start && !mapStart && listed:
			t.Errorf("%s sets no start time, yet the README's start-time table has a row for it", n)
		case listed && (strings.TrimSpace(cells[3]) != "–") != mapStart:
			t.Errorf("%s: the start-time table's map-start column %q, the code sets a map start time: %v", n, strings.TrimSpace(cells[3]), mapStart)
		}
	}
}
