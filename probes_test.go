package main

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"net/netip"
	"path/filepath"
	"strings"
	"sync"
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
	quake3 := prototest.UDP(t, func(req []byte) [][]byte {
		// The ping-0 line has the querier ask getinfo for the bot count.
		if c, ok := strings.CutPrefix(string(req), "\xff\xff\xff\xffgetinfo "); ok {
			return [][]byte{[]byte("\xff\xff\xff\xffinfoResponse\n\\challenge\\" + strings.TrimSpace(c) + "\\clients\\2\\g_humanplayers\\1")}
		}
		if !strings.HasPrefix(string(req), "\xff\xff\xff\xffgetstatus") {
			return nil
		}
		// echo the challenge token, as ioq3 does
		challenge := strings.TrimSpace(strings.TrimPrefix(strings.TrimRight(string(req[4:]), "\x00\n"), "getstatus"))
		return [][]byte{[]byte("\xff\xff\xff\xffstatusResponse\n\\challenge\\" + challenge +
			"\\sv_hostname\\^1Test ^7Arena\\mapname\\q3dm17\\sv_maxclients\\12\\g_needpass\\0\\gamename\\baseq3\\version\\ioq3 1.36\n" +
			"5 0 \"^2Bot\"\n12 48 \"Player\"\n")}
	})
	e := startExporter(t)
	for _, tc := range []struct {
		module string
		target netip.AddrPort
		want   []string
	}{
		{"hytale", hytale, []string{"probe_success 1", "gameserver_players 7", "gameserver_players_max 50"}},
		{"quake3", quake3, []string{"probe_success 1", "gameserver_players 1", "gameserver_bots 1", "gameserver_players_max 12",
			`name="Test Arena"`, `map="q3dm17"`, "gameserver_password_required 0"}},
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

// TestNamesOnlyPlayers: a protocol that reports player names and nothing else
// per player (Mafia 2 Multiplayer) shows each of them in /probe, with players:
// true, as gameserver_player_info.
func TestNamesOnlyPlayers(t *testing.T) {
	// gamedig's reading of the reply: the tag, length-led strings (the length
	// counts itself), a password byte, the names, an empty name at the end.
	reply, err := prototest.ParseVec(`"M2MP" L"Empire Bay" L"3" L"100" L"M2MP 0.1" 00 L"Vito" L"Joe" L"Henry" 01`)
	if err != nil {
		t.Fatal(err)
	}
	srv := prototest.UDP(t, func(req []byte) [][]byte {
		if string(req) != "M2MP" {
			return nil
		}
		return [][]byte{reply}
	})
	e := startExporter(t, "--config.file="+writeFile(t, filepath.Join(t.TempDir(), "modules.yml"),
		"modules:\n  m2m_players:\n    protocol: mafia2mp\n    players: true\n    port_offsets: [0]\n"))
	code, body := e.Get(t, "/probe?module=m2m_players&target="+srv.String())
	if code != 200 {
		t.Fatalf("status %d: %s", code, body)
	}
	prototest.WantAll(t, body, "probe_success 1", "gameserver_players 3",
		`gameserver_player_info{player="Henry",team=""} 1`,
		`gameserver_player_info{player="Joe",team=""} 1`,
		`gameserver_player_info{player="Vito",team=""} 1`)
	if n := strings.Count(body, "\ngameserver_player_info{"); n != 3 {
		t.Errorf("%d player_info series, want 3:\n%s", n, body)
	}
}

// TestTeamSpeak2DefaultModule: the built-in teamspeak2 module, under the default
// target policy and no modules file, reaches the query port 51234 on the address
// the target names (the voice port 8767): the policy judges addresses, and the
// module's query port on an allowed address is part of what the module may reach.
func TestTeamSpeak2DefaultModule(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:51234")
	if err != nil {
		t.Skipf("the built-in module's query port 51234 is taken on 127.0.0.1 (%v): cannot stand in for a default TeamSpeak 2 server", err)
	}
	var mu sync.Mutex
	var selected []string
	prototest.ServeTCP(t, l, func(c net.Conn) {
		c.Write([]byte("[TS]\r\n"))
		for sc := bufio.NewScanner(c); sc.Scan(); {
			switch line := strings.TrimSpace(sc.Text()); {
			case strings.HasPrefix(line, "sel "):
				mu.Lock()
				selected = append(selected, line)
				mu.Unlock()
				c.Write([]byte("OK\r\n"))
			case line == "si":
				c.Write([]byte("server_name=Default TS2\r\nserver_maxusers=32\r\nserver_currentusers=5\r\nserver_password=0\r\nOK\r\n"))
			case line == "quit":
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
	mu.Lock()
	defer mu.Unlock()
	if len(selected) == 0 || selected[0] != "sel 8767" {
		t.Errorf("selected %q, want the target's voice port 8767", selected)
	}
}
