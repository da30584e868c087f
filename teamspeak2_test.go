package main

import (
	"bufio"
	"net"
	"strings"
	"sync"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

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
	wantAll(t, body, "probe_success 1", "gameserver_players 5", "gameserver_players_max 32", `name="Default TS2"`)
	mu.Lock()
	defer mu.Unlock()
	if len(selected) == 0 || selected[0] != "sel 8767" {
		t.Errorf("selected %q, want the target's voice port 8767", selected)
	}
}
