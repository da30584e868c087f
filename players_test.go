package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

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
	wantAll(t, body, "probe_success 1", "gameserver_players 3",
		`gameserver_player_info{player="Henry",team=""} 1`,
		`gameserver_player_info{player="Joe",team=""} 1`,
		`gameserver_player_info{player="Vito",team=""} 1`)
	if n := strings.Count(body, "\ngameserver_player_info{"); n != 3 {
		t.Errorf("%d player_info series, want 3:\n%s", n, body)
	}
}
