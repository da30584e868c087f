//go:build tools

// Command gotest runs `go test -json` with the arguments it is given and prints what
// plain `go test` would (each package's closing ok/FAIL line, the output of failed
// tests, build errors), then the tests that skipped, one line each with why: a
// skip is otherwise invisible without -v. It exits as go test did. `make test`
// runs every test step through it.
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sort"
	"strings"
)

func main() {
	gobin := os.Getenv("GO")
	if gobin == "" {
		gobin = "go"
	}
	cmd := exec.Command(gobin, append([]string{"test", "-json"}, os.Args[1:]...)...)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		fmt.Fprintln(os.Stderr, "gotest:", err)
		os.Exit(2)
	}
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "gotest:", err)
		os.Exit(2)
	}
	skips := report(out, os.Stdout)
	if lines := skipLines(skips); lines != "" {
		fmt.Println(lines)
	}
	if err := cmd.Wait(); err != nil {
		if ee := (*exec.ExitError)(nil); errors.As(err, &ee) {
			os.Exit(ee.ExitCode())
		}
		fmt.Fprintln(os.Stderr, "gotest:", err)
		os.Exit(2)
	}
}

// event is one line of `go test -json` (cmd/test2json).
type event struct {
	Action  string
	Package string
	Test    string
	Output  string
}

// skip is a skipped test (package and name) and the reason its last t.Skip line gave.
type skip struct{ pkg, name, reason string }

// report copies r's events to w as go test without -v prints them, and returns
// the skipped tests. A test's output is kept until it ends: printed if it failed,
// its last line kept as the reason if it skipped.
func report(r io.Reader, w io.Writer) []skip {
	var skips []skip
	held := map[string][]string{} // package + test -> output lines
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var e event
		if json.Unmarshal(sc.Bytes(), &e) != nil {
			fmt.Fprintln(w, sc.Text()) // not an event: pass it on
			continue
		}
		key := e.Package + " " + e.Test
		switch {
		case e.Action == "output" && e.Test == "":
			// The binary's own PASS and run lines: go test without -v drops them.
			if e.Output != "PASS\n" && !strings.HasPrefix(e.Output, "=== ") && !strings.HasPrefix(e.Output, "--- ") {
				io.WriteString(w, e.Output)
			}
		case e.Action == "build-output":
			io.WriteString(w, e.Output)
		case e.Action == "output":
			if !strings.HasPrefix(e.Output, "=== ") {
				held[key] = append(held[key], e.Output)
			}
		case e.Action == "fail" && e.Test != "":
			for _, l := range held[key] {
				io.WriteString(w, l)
			}
			delete(held, key)
		case e.Action == "skip" && e.Test != "":
			skips = append(skips, skip{pkg: e.Package, name: e.Test, reason: reason(held[key])})
			delete(held, key)
		case e.Action == "pass" && e.Test != "":
			delete(held, key)
		}
	}
	return skips
}

// reason is the message of a skipped test's t.Skip: its last "file_test.go:N: ..." line.
func reason(lines []string) string {
	for i := len(lines) - 1; i >= 0; i-- {
		l := strings.TrimSpace(lines[i])
		if strings.HasPrefix(l, "--- ") || strings.HasPrefix(l, "=== ") || l == "" {
			continue
		}
		if _, msg, ok := strings.Cut(l, ".go:"); ok {
			if _, m, ok := strings.Cut(msg, ": "); ok {
				return m
			}
		}
		return l
	}
	return "no reason given"
}

// skipLines is the summary: a count, then one line per skipped test ("skip:
// TestA (pkg): why"), each test once however often it ran (-count, a package
// tested twice), in package then test order; the subtests of a skipped test
// that skipped for its reason are left out. Empty when nothing skipped.
func skipLines(skips []skip) string {
	seen := map[skip]bool{}
	var uniq []skip
	for _, s := range skips {
		if !seen[s] {
			seen[s] = true
			uniq = append(uniq, s)
		}
	}
	sort.Slice(uniq, func(i, j int) bool {
		if uniq[i].pkg != uniq[j].pkg {
			return uniq[i].pkg < uniq[j].pkg
		}
		return uniq[i].name < uniq[j].name
	})
	var lines []string
	for i, s := range uniq {
		parent, _, sub := strings.Cut(s.name, "/")
		if sub && i > 0 && seen[skip{pkg: s.pkg, name: parent, reason: s.reason}] {
			continue
		}
		lines = append(lines, fmt.Sprintf("skip: %s (%s): %s", s.name, s.pkg, s.reason))
	}
	if len(lines) == 0 {
		return ""
	}
	noun := "tests"
	if len(lines) == 1 {
		noun = "test"
	}
	return fmt.Sprintf("skipped %d %s:\n%s", len(lines), noun, strings.Join(lines, "\n"))
}
