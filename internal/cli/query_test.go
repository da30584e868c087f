package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/alecthomas/kingpin/v2"

	"github.com/gameserver-exporter/gameserver_exporter/config"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// runQuery runs the query command in process, as main would after parsing args.
func runQuery(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	app := kingpin.New("test", "")
	configFile := app.Flag("config.file", "").String()
	qc := AddQuery(app)
	if _, err := app.Parse(append([]string{"query"}, args...)); err != nil {
		t.Fatalf("parse %v: %v", args, err)
	}
	var out, errb bytes.Buffer
	code = qc.Run(*configFile, &out, &errb)
	return code, out.String(), errb.String()
}

func TestParseQueryTimeout(t *testing.T) {
	for in, want := range map[string]time.Duration{"": 0, "2s": 2 * time.Second, "500ms": 500 * time.Millisecond,
		"1m30s": 90 * time.Second, "1m": time.Minute, "2": 2 * time.Second, "0.5": 500 * time.Millisecond} {
		if got, err := parseQueryTimeout(in); err != nil || got != want {
			t.Errorf("parseQueryTimeout(%q) = %s, %v; want %s", in, got, err, want)
		}
	}
	for _, in := range []string{"0", "-1s", "5ms", "10m", "1d", "1e9", "NaN", "soon"} {
		if got, err := parseQueryTimeout(in); err == nil || got != 0 || !strings.Contains(err.Error(), "--timeout") {
			t.Errorf("parseQueryTimeout(%q) = %s, %v; want an error naming the flag", in, got, err)
		}
	}
}

// TestQuerySeveral: several targets, by argument and from a file, are probed at
// once and printed in the order given (--json: one object per target); the module
// defaults to auto, which exports the protocol and port that answered.
func TestQuerySeveral(t *testing.T) {
	a2sAddr := prototest.A2SServer(t)
	a2s, q3, closed := a2sAddr.String(), prototest.Quake3Server(t, "").String(), prototest.ClosedUDPPort(t).String()
	code, out, errs := runQuery(t, "--timeout", "5s", a2s, q3, closed)
	if code != 1 {
		t.Errorf("one target down: exit %d, want 1\n%s%s", code, out, errs)
	}
	wantOrder(t, out, a2s+" (auto: a2s on port", q3+" (auto: quake3 on port", closed+" (auto): DOWN")
	prototest.WantAll(t, out, "A2S Test", "Q3 Test")
	_, out, _ = runQuery(t, "--json", a2s, q3)
	dec := json.NewDecoder(strings.NewReader(out))
	var got []string
	for {
		var r struct {
			Target, Protocol string
			Players          *int64
			MaxPlayers       *int64 `json:"max_players"`
		}
		if err := dec.Decode(&r); errors.Is(err, io.EOF) {
			break
		} else if err != nil || r.Players == nil || r.MaxPlayers == nil {
			t.Fatalf("%v %+v in %s", err, r, out)
		}
		got = append(got, fmt.Sprint(r.Target, " ", r.Protocol, " ", *r.Players, "/", *r.MaxPlayers))
	}
	if strings.Join(got, ",") != a2s+" a2s 4/16,"+q3+" quake3 0/12" {
		t.Errorf("--json reports %v", got)
	}
	if code, out, errs = runQuery(t, "--metrics", a2s); code != 0 {
		t.Fatalf("exit %d %s %s", code, out, errs)
	}
	prototest.WantAll(t, out, `protocol="a2s"`, `name="A2S Test"`, "probe_success 1", "gameserver_query_port "+strconv.Itoa(int(a2sAddr.Port())))
	_, out, _ = runQuery(t, "--debug", a2s)
	prototest.WantAll(t, out, "auto: port", "auto: a2s answered on port", "Packets:", "#1 sent")

	file := filepath.Join(t.TempDir(), "servers.txt")
	prototest.WriteFile(t, file, "# my servers\n\nquake3 "+q3+"  # the arena\n"+a2s+"\n   \na2s "+closed+"\n")
	code, out, errs = runQuery(t, "-f", file, "--timeout", "5s")
	if code != 1 {
		t.Errorf("-f: exit %d\n%s%s", code, out, errs)
	}
	wantOrder(t, out, q3+" (quake3): up", a2s+" (auto: a2s on port", closed+" (a2s): DOWN")
	// Arguments come first, then the file; all succeed: exit 0.
	prototest.WriteFile(t, file, "quake3 "+q3+"\n")
	// --timeout takes a Go duration (not the scrape-timeout header's seconds).
	code, out, _ = runQuery(t, "-m", "a2s", "-f", file, "--timeout", "2s", a2s)
	if code != 0 {
		t.Errorf("all up: exit %d\n%s", code, out)
	}
	wantOrder(t, out, a2s+" (a2s): up, answered in", q3+" (quake3): up, answered in")
}

// TestQueryFails: a target down exits 1 with its reason once (not "refused:
// refused:"); what cannot run exits 2 saying why: a module in the wrong case gets
// its name suggested, not all 200; auto runs after the target policy.
func TestQueryFails(t *testing.T) {
	dir := t.TempDir()
	badLine, deny := filepath.Join(dir, "servers.txt"), filepath.Join(dir, "modules.yml")
	prototest.WriteFile(t, badLine, "a2s 127.0.0.1:27015 extra\n")
	prototest.WriteFile(t, deny, "target_policy:\n  deny: [127.0.0.0/8]\n")
	a2s := prototest.A2SServer(t).String()
	for _, tc := range []struct {
		args      []string
		code      int
		want, not string // want once in the output or on stderr, not never
	}{
		{[]string{"-m", "a2s", prototest.ClosedUDPPort(t).String()}, 1, "refused:", ""},
		{[]string{"-m", "hytale", prototest.ClosedTCPPort(t).String()}, 1, "refused:", ""},
		{[]string{"-m", "auto", prototest.ClosedUDPPort(t).String()}, 1, "refused:", ""},
		{[]string{"-m", "a2s", "--timeout", "300ms", prototest.Silent(t).String()}, 1, ": timeout", ""}, // DOWN: TestQuerySeveral
		{[]string{"--timeout", "2x", "127.0.0.1:1"}, 2, `invalid --timeout "2x"`, ""},
		{[]string{"-f", badLine}, 2, badLine + ":1:", ""},
		{nil, 2, "no target", ""},
		{[]string{"-m", "nope", a2s}, 2, `unknown module "nope"`, ""},
		{[]string{"-m", "OpenArena", a2s}, 2, `did you mean "openarena"?`, "valheim"},
		{[]string{"--config.file", deny, a2s}, 2, "target refused by target_policy", ""},
	} {
		start := time.Now()
		code, out, errs := runQuery(t, tc.args...)
		if all := out + errs; code != tc.code || strings.Count(all, tc.want) != 1 || tc.not != "" && strings.Contains(all, tc.not) {
			t.Errorf("%q: exit %d, want %d and %q once:\n%s", tc.args, code, tc.code, tc.want, all)
		}
		if el := time.Since(start); el > 5*time.Second { // --timeout 300ms bounds the probe
			t.Errorf("%q took %s", tc.args, el)
		}
	}
}

func TestSilentHints(t *testing.T) {
	cfg, err := config.Load("")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		module, target, reason string
		want                   []string
	}{
		{"a2s", "203.0.113.7:2456", "timeout", []string{"game port of valheim (query port 2457)", "-m valheim"}},
		{"valheim", "203.0.113.7:2457", "timeout", []string{"queried port 2458", "give the game port"}},
		// The game port itself: the query port was right, it was silent.
		{"valheim", "203.0.113.7:2456", "timeout", []string{"queried port 2457", "query port open"}},
		{"a2s", "203.0.113.7:27960", "refused", []string{"also a port of quake3", "-m quake3", "-m auto"}},
		{"quake3", "203.0.113.7:7777", "timeout", []string{"game port of", "ark (query port 27015)", " more: ", "a2s"}},
		{"a2s", "203.0.113.7:12345", "timeout", []string{"nothing answered on port 12345", "-m auto"}},
		{"a2s", "203.0.113.7", "timeout", []string{"port 27015"}},
		{"auto", "203.0.113.7:12345", "timeout", []string{"none of the protocols port 12345 suggests answered", "query port"}},
	} {
		prototest.WantAll(t, strings.Join(silentHints(cfg, tc.module, tc.target, tc.reason), "\n"), tc.want...)
	}
	if h := strings.Join(silentHints(cfg, "valheim", "127.0.0.1:2456", "timeout"), "\n"); strings.Contains(h, "give the game port") {
		t.Errorf("given the game port, a hint says to give the game port:\n%s", h)
	}
	if h := silentHints(cfg, "a2s", "203.0.113.7:2456", "malformed"); h != nil {
		t.Errorf("a server that answered gets no port hints: %v", h)
	}
}

// wantOrder checks that every part is in s, each after the one before.
func wantOrder(t *testing.T, s string, parts ...string) {
	t.Helper()
	at := 0
	for _, p := range parts {
		i := strings.Index(s[at:], p)
		if i < 0 {
			t.Errorf("missing %q (in this order) in:\n%s", p, s)
			return
		}
		at += i + len(p)
	}
}

// TestQueryEscapesServerText: a server's name, players and rules reach the
// terminal with their control characters and bidi overrides escaped (hostile
// round, row 6: 15 ESC bytes retitled and cleared the terminal).
func TestQueryEscapesServerText(t *testing.T) {
	info := append([]byte("\xff\xff\xff\xffI\x11Evil\x1b]0;pwned\x07\u202eX\x00de_\x1b[2Jdust\x00csgo\x00Counter-Strike\x00"),
		0xda, 0x02, 5, 16, 1, 'd', 'l', 0, 1)
	info = append(info, "1.0\r\nforged: line\x00"...)
	addr := prototest.UDP(t, func(req []byte) [][]byte {
		if len(req) >= 25 && string(req[4:24]) == "TSource Engine Query" {
			return [][]byte{info}
		}
		return nil
	})
	for _, mode := range [][]string{nil, {"--json"}, {"--debug"}} {
		args := append([]string{"-m", "a2s", addr.String()}, mode...)
		code, out, errs := runQuery(t, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d %s %s", mode, code, out, errs)
		}
		if strings.ContainsAny(out, "\x1b\x07\u202e\r") || strings.Contains(out, "\nforged") {
			t.Errorf("%v: raw control characters in the output:\n%q", mode, out)
		}
		if !strings.Contains(out, "Evil") {
			t.Errorf("%v: the player is missing:\n%s", mode, out)
		}
	}
}
