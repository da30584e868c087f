package main

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestProbeEachProtocol scrapes /probe of the real binary for a fake server of each
// of the first three protocols, built from their specs.
func TestProbeEachProtocol(t *testing.T) {
	hytale := prototest.TCP(t, func(c net.Conn) {
		bufio.NewReader(c).ReadString('\n')
		c.Write([]byte("OK 7 50\r\n"))
	})
	// The decoders' quirks (colours, bots, passwords) are their packages' tests.
	quake3 := prototest.Quake3Server(t, "12 48 \"Player\"\n")
	e := startExporter(t)
	for _, tc := range []struct {
		module string
		target netip.AddrPort
		want   []string
	}{
		{"hytale", hytale, []string{"probe_success 1", "gameserver_players 7", "gameserver_players_max 50"}},
		{"quake3", quake3, []string{"probe_success 1", "gameserver_players 1", "gameserver_players_max 12", `name="Q3 Test"`, `map="q3dm17"`}},
		{"a2s", prototest.A2SServer(t), []string{"probe_success 1", "gameserver_players_max 16", `name="A2S Test"`,
			`map="de_dust2"`, `gameserver_query_duration_seconds{phase="challenge"}`}},
	} {
		t.Run(tc.module, func(t *testing.T) {
			code, body := e.Get(t, "/probe?module="+tc.module+"&target="+tc.target.String())
			if code != 200 {
				t.Fatalf("status %d: %s", code, body)
			}
			prototest.WantAll(t, body, tc.want...)
			_, dbg := e.Get(t, "/probe?debug=true&module="+tc.module+"&target="+tc.target.String())
			prototest.WantAll(t, dbg, "Logs for the probe:", "Packets:", "#1 sent", "received")
		})
	}
	// A silent server fails as a timeout within the scrape budget, HTTP 200.
	req, _ := http.NewRequest("GET", e.Base+"/probe?module=a2s&target="+prototest.Silent(t).String(), nil)
	req.Header.Set("X-Prometheus-Scrape-Timeout-Seconds", "1")
	lag := prototest.SchedulingLag(t)
	start := time.Now()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if el := time.Since(start); el > 1500*time.Millisecond+lag() {
		t.Errorf("silent probe took %s with a 0.5s budget", el)
	}
	if resp.StatusCode != 200 {
		t.Errorf("silent probe status %d", resp.StatusCode)
	}
	prototest.WantAll(t, string(b), "probe_success 0", `probe_failure_info{reason="timeout"} 1`)
	_, landing := e.Get(t, "/")
	prototest.WantAll(t, landing, `<span class="reason">timeout</span>`, "/logs?id=", `<tr class="down">`)
}

// TestTeamSpeak2DefaultModule: the built-in teamspeak2 module, under the default
// target policy, reaches the query port 51234 on the address of the voice port
// 8767 the target names: the policy judges addresses, not ports.
func TestTeamSpeak2DefaultModule(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:51234")
	if err != nil {
		t.Skipf("the built-in module's query port 51234 is taken on 127.0.0.1 (%v): cannot stand in for a default TeamSpeak 2 server", err)
	}
	prototest.ServeTCP(t, l, func(c net.Conn) {
		c.Write([]byte("[TS]\r\n"))
		selected := false // the target's voice port, before si
		for sc := bufio.NewScanner(c); sc.Scan(); {
			switch line := strings.TrimSpace(sc.Text()); {
			case line == "sel 8767":
				selected = true
				c.Write([]byte("OK\r\n"))
			case line == "si" && selected:
				c.Write([]byte("server_name=Default TS2\r\nserver_maxusers=32\r\nserver_currentusers=5\r\nserver_password=0\r\nOK\r\n"))
			case line == "quit", line == "si", strings.HasPrefix(line, "sel "):
				return
			default:
				c.Write([]byte("OK\r\n"))
			}
		}
	})
	e := startExporter(t)
	code, body := e.Get(t, "/probe?module=teamspeak2&target=127.0.0.1:8767")
	if code != 200 {
		t.Fatalf("status %d: %s", code, body)
	}
	prototest.WantAll(t, body, "probe_success 1", "gameserver_players 5", "gameserver_players_max 32", `name="Default TS2"`)
}
