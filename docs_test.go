package main

import (
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/gameserver-exporter/gameserver_exporter/config"
)

// The docs say what the binary does: these tests read README.md and examples/ and
// check what can be checked offline, so that the docs cannot drift from the code.

// docFiles are README.md and every text file under examples/, by name.
func docFiles(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{"README.md": readFile(t, "README.md")}
	filepath.WalkDir("examples", func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && regexp.MustCompile(`\.(ya?ml|md|service|json|txt)$`).MatchString(path) {
			out[path] = readFile(t, path)
		}
		return nil
	})
	return out
}

// docLines calls f with each line of docFiles and of the other files, numbered from 1.
func docLines(t *testing.T, f func(file string, n int, line string), other ...string) {
	files := docFiles(t)
	for _, o := range other {
		files[o] = readFile(t, o)
	}
	for file, text := range files {
		for i, line := range strings.Split(text, "\n") {
			f(file, i+1, line)
		}
	}
}

// otherTool marks a line that runs another program, whose flags are not ours.
var otherTool = regexp.MustCompile(`\b(systemctl|podman|docker|promtool|prometheus --|go (test|build|install)|curl)\b`)

// TestDocsFlags: every --flag the docs name is one of the exporter's (serve's or
// query's, as --help lists them).
func TestDocsFlags(t *testing.T) {
	help := ""
	for _, args := range [][]string{{"--help-long"}, {"query", "--help"}} {
		out, err := exe(args...)
		if err != nil {
			t.Fatalf("%v: %v\n%s", args, err, out)
		}
		help += out
	}
	known := map[string]bool{}
	for _, m := range regexp.MustCompile(`--(\[no-\])?([a-z][a-z0-9.-]*[a-z0-9])`).FindAllStringSubmatch(help, -1) {
		known[m[2]] = true
		if m[1] != "" {
			known["no-"+m[2]] = true
		}
	}
	// The README's flag table lists every flag of the server.
	readme := readFile(t, "README.md")
	table := map[string]bool{}
	for _, row := range regexp.MustCompile("(?m)^\\| `--.*$").FindAllString(readme, -1) {
		for _, m := range regexp.MustCompile("`--([a-z0-9.-]+)").FindAllStringSubmatch(strings.SplitN(row, "|", 3)[1], -1) {
			table[m[1]] = true
		}
	}
	serve, _ := exe("serve", "--help")
	for _, m := range regexp.MustCompile(`--(?:\[no-\])?([a-z][a-z0-9.-]*[a-z0-9])`).FindAllStringSubmatch(serve, -1) {
		if f := m[1]; !table[f] && !strings.HasPrefix(f, "help") && !strings.HasPrefix(f, "no-") && f != "version" {
			t.Errorf("README: the flags table lacks --%s", f)
		}
	}

	flag := regexp.MustCompile(`(^|[\s\x60(=])--([a-z][a-z0-9.-]*[a-z0-9])`)
	docLines(t, func(file string, n int, line string) {
		for _, m := range flag.FindAllStringSubmatch(line, -1) {
			if !known[m[2]] && !otherTool.MatchString(line) {
				t.Errorf("%s:%d: --%s is no flag of the exporter (--help-long, query --help)", file, n, m[2])
			}
		}
	})
}

// endpoints are the paths of the README's endpoint table: whether they take POST.
func endpoints(t *testing.T) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	row := regexp.MustCompile("(?m)^\\| (`/[^|]*) \\| (.*) \\|$")
	for _, m := range row.FindAllStringSubmatch(readFile(t, "README.md"), -1) {
		for _, p := range regexp.MustCompile("`(/[^`?\\[]*)").FindAllStringSubmatch(m[1], -1) {
			out[p[1]] = strings.Contains(m[2], "`POST`")
		}
	}
	if len(out) < 8 {
		t.Fatalf("README endpoint table: found only %v", out)
	}
	return out
}

// TestDocsEndpoints: every endpoint of the README's table is served with its
// method, and every docs' curl line uses one, with a URL curl takes.
func TestDocsEndpoints(t *testing.T) {
	eps := endpoints(t)
	e := startExporter(t)
	for path, post := range eps {
		method := http.MethodGet
		if post {
			method = http.MethodPost
		}
		req, _ := http.NewRequest(method, e.Base+path, nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body := make([]byte, 64)
		n, _ := resp.Body.Read(body)
		resp.Body.Close()
		if resp.StatusCode == http.StatusMethodNotAllowed || strings.HasPrefix(string(body[:n]), "404 page not found") {
			t.Errorf("%s %s: %d %q: the README's endpoint table lists it", method, path, resp.StatusCode, body[:n])
		}
	}

	curl := regexp.MustCompile("curl( [^`\\n]*)")
	docLines(t, func(file string, n int, line string) {
		for _, m := range curl.FindAllStringSubmatch(line, -1) {
			checkCurl(t, file, n, eps, m[1])
		}
	})
}

// checkCurl checks one curl command line's URL: a scheme or a host (curl 7.88
// refuses ":10115/path"), an endpoint of the table, POST only where it says so.
func checkCurl(t *testing.T, file string, line int, eps map[string]bool, args string) {
	t.Helper()
	fields := strings.Fields(strings.Split(args, "#")[0])
	post := false
	var raw string
	for i := 0; i < len(fields); i++ {
		f := strings.Trim(fields[i], `'"`)
		switch {
		case f == "-X" && i+1 < len(fields):
			post = fields[i+1] == "POST"
			i++
		case f == "-H" || f == "-o" || f == "-d" || f == "-u" || f == "--cacert":
			i++
		case strings.HasPrefix(f, "-"):
		case raw == "":
			raw = f
		}
	}
	if raw == "" {
		return // prose about curl, no command
	}
	u, err := url.Parse(raw)
	if err == nil && u.Scheme != "http" && u.Scheme != "https" {
		u, err = url.Parse("http://" + raw) // curl's default scheme
	}
	if err != nil || u.Hostname() == "" {
		t.Errorf("%s:%d: curl URL %q has no host (curl refuses it): %v", file, line, raw, err)
		return
	}
	wantPost, ok := eps[u.Path]
	if !ok {
		t.Errorf("%s:%d: curl URL %q: %s is not in the README's endpoint table", file, line, raw, u.Path)
	}
	if post != wantPost {
		t.Errorf("%s:%d: curl %q: POST %v, the endpoint table says %v", file, line, raw, post, wantPost)
	}
}

// TestDocsModules: every module the docs use (module=x, module: [x], -m x) is built
// in or in examples/modules.yml; the README says what the sidecar example scrapes.
func TestDocsModules(t *testing.T) {
	cfg, err := config.Load("examples/modules.yml")
	if err != nil {
		t.Fatal(err)
	}
	use := regexp.MustCompile(`(?:module=|module: \[|query .*-m )([A-Za-z0-9_.-]+)`)
	docLines(t, func(file string, n int, line string) {
		for _, m := range use.FindAllStringSubmatch(line, -1) {
			if _, ok := cfg.Modules[m[1]]; !ok && m[1] != "NAME" {
				t.Errorf("%s:%d: module %q is neither built in nor in examples/modules.yml", file, n, m[1])
			}
		}
	})

	readme := readFile(t, "README.md")
	sidecar := readFile(t, "examples/kubernetes/sidecar.yml")
	said := regexp.MustCompile(`params: \{module: \[(\w+)\], target: \["([^"]+)"\]\}`).FindStringSubmatch(readme)
	if said == nil {
		t.Fatal("README: no sidecar params")
	}
	if !regexp.MustCompile(`module: \[` + said[1] + `\]\s+target: \[` + regexp.QuoteMeta(said[2]) + `\]`).MatchString(sidecar) {
		t.Errorf("README says the sidecar scrapes module %s target %s; sidecar.yml does not", said[1], said[2])
	}
}

// modulesFileKeys are the top-level keys of a modules file.
var modulesFileKeys = map[string]bool{"modules": true, "discovery": true, "target_policy": true}

// TestDocsModulesFiles: every yaml block of the README that is a modules file passes
// --config.check, the files it names (`*_file:`, secrets under /run, /etc, /var)
// stood in by temporary ones; other blocks are skipped, each logged.
func TestDocsModulesFiles(t *testing.T) {
	readme := readFile(t, "README.md")
	block := regexp.MustCompile("(?ms)^ *```yaml\n(.*?)^ *```")
	fileOpt := regexp.MustCompile(`(?m)^(\s*\w*_file:\s*)(\S+)|([\s{,:] *)(/(?:run|etc|var)/[\w./-]+)`)
	checked := 0
	for _, m := range block.FindAllStringSubmatchIndex(readme, -1) {
		line := strings.Count(readme[:m[0]], "\n") + 1
		body := dedent(readme[m[2]:m[3]])
		var doc map[string]any
		if err := yaml.Unmarshal([]byte(body), &doc); err != nil {
			t.Logf("README.md:%d: skipped: not a YAML mapping (a fragment): %v", line, err)
			continue
		}
		var ours, other []string
		for k := range doc {
			if modulesFileKeys[k] {
				ours = append(ours, k)
			} else {
				other = append(other, k)
			}
		}
		switch {
		case len(ours) == 0:
			t.Logf("README.md:%d: skipped: not a modules file (top-level keys %v)", line, other)
			continue
		case len(other) > 0:
			t.Errorf("README.md:%d: a modules file block with keys %v, which no modules file has", line, other)
			continue
		}
		dir := t.TempDir()
		body = fileOpt.ReplaceAllStringFunc(body, func(s string) string {
			sub := fileOpt.FindStringSubmatch(s)
			prefix, name := sub[1], sub[2]
			if name == "" {
				prefix, name = sub[3], sub[4]
			}
			return prefix + writeFile(t, filepath.Join(dir, filepath.Base(name)), "stand-in\n")
		})
		checked++
		if out, err := exe("--config.check", "--config.file="+writeFile(t, filepath.Join(dir, "modules.yml"), body)); err != nil {
			t.Errorf("README.md:%d: the modules file fails --config.check: %v\n%s\n%s", line, err, out, body)
		}
	}
	if checked < 5 {
		t.Errorf("only %d modules-file blocks found in the README", checked)
	}
}

// dedent removes the indentation of a block quoted inside a list item.
func dedent(s string) string {
	lines := strings.Split(s, "\n")
	ind := -1
	for _, l := range lines {
		if t := strings.TrimLeft(l, " "); t != "" && (ind < 0 || len(l)-len(t) < ind) {
			ind = len(l) - len(t)
		}
	}
	for i, l := range lines {
		if len(l) >= ind && ind > 0 {
			lines[i] = l[ind:]
		}
	}
	return strings.Join(lines, "\n")
}

// TestDocsComposeCommand: the docs never tell to run `podman compose up`, which
// Debian 12's podman (4.3) lacks: podman-compose or docker compose.
func TestDocsComposeCommand(t *testing.T) {
	said := false
	docLines(t, func(file string, n int, line string) {
		if strings.Contains(line, "podman compose up") {
			t.Errorf("%s:%d: `podman compose up` needs podman 4.7 or later: say podman-compose", file, n)
		}
		said = said || strings.Contains(line, "podman-compose up")
	}, "compose.yml")
	if !said {
		t.Error("no doc says how to run compose.yml with podman (podman-compose up)")
	}
}
