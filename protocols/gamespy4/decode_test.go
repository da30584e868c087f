package gamespy4

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/gamespy/gamespytest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/mctext"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

func vector(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name+".bin"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestDecodeVectors runs the hand-built vectors of testdata/, written from the spec.
func TestDecodeVectors(t *testing.T) {
	tests := []struct {
		name                string
		basic               bool
		err                 error
		noResult            bool
		host, mapName, game string
		version             string
		players, max        protocols.Count
		list                []string // nil: no player section
		info                map[string]string
	}{
		{
			// § codes stripped from the name only; 0xE9 is ISO-8859-1 é.
			name: "full_vanilla", host: "Café Craft", mapName: "world", game: "MINECRAFT", version: "1.20.4",
			players: protocols.Known(3), max: protocols.Known(20), list: []string{"Notch", "jeb_", "Dinnerbone"},
			info: map[string]string{"hostname": "§aCafé §lCraft§r ", "plugins": "", "hostport": "25565"},
		},
		{
			// UTF-8 from a third-party server, Geyser padding, keys out of order,
			// numplayers disagreeing with the list (it wins).
			name: "full_utf8", host: "Ünïcødé ★ Gold", mapName: "Lobby", game: "MINECRAFTPE", version: "v1.20.0",
			players: protocols.Known(32), max: protocols.Known(91), list: []string{"Stève"},
			info: map[string]string{"whitelist": "off", "server_engine": "PocketMine-MP 5.0"},
		},
		{
			// NULs inside the MOTD (chars above U+00FF), zeroed padding.
			name: "full_motd_nul", host: "\x00A\x00B", mapName: "world", game: "MINECRAFT", version: "1.18.1",
			players: protocols.Known(0), max: protocols.Known(10), list: []string{},
		},
		{
			name: "full_no_players", host: "Café Craft", mapName: "world", game: "MINECRAFT", version: "1.20.4",
			players: protocols.Known(3), max: protocols.Known(20),
		},
		{name: "full_cut_kv", err: wire.ErrTruncated, host: "Café Craft", game: "SMP"}, // cut inside game_id
		{
			name: "full_cut_name", err: wire.ErrTruncated, host: "Café Craft", mapName: "world", game: "MINECRAFT", version: "1.20.4",
			players: protocols.Known(3), max: protocols.Known(20), list: []string{"Notch", "jeb_"},
		},
		{name: "full_short", err: wire.ErrTruncated, noResult: true},
		{name: "bad_type", err: wire.ErrMalformed, noResult: true},
		{
			name: "basic", basic: true, host: "Basic Server", mapName: "world", game: "SMP",
			players: protocols.Known(2), max: protocols.Known(20), info: map[string]string{"hostport": "25565", "hostip": "127.0.0.1"},
		},
		{
			name: "basic_port_nul", basic: true, host: "Port", mapName: "world", game: "SMP",
			players: protocols.Known(2), max: protocols.Known(20), info: map[string]string{"hostport": "25600"},
		},
		{name: "basic_motd_nul", basic: true, err: wire.ErrMalformed, noResult: true},
		{
			name: "basic_cut", basic: true, err: wire.ErrTruncated, host: "Cut", mapName: "world", game: "SMP",
			players: protocols.Known(2), max: protocols.Known(20),
		},
		{name: "full_short", basic: true, err: wire.ErrTruncated},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			decode := decodeFull
			if tc.basic {
				decode = decodeBasic
			}
			st, err := decode(vector(t, tc.name))
			prototest.WantedError(t, err, tc.err)
			if tc.noResult {
				if st != nil {
					t.Fatalf("result %+v", st)
				}
				return
			}
			res := st.result(true, true)
			// Minecraft's query says nothing of a password: unknown.
			gamespytest.CheckHead(t, res, gamespytest.Head{Name: tc.host, Map: tc.mapName, Game: tc.game, Version: tc.version,
				Players: tc.players, Max: tc.max, Info: tc.info})
			if (res.PlayerList == nil) != (tc.list == nil) || len(res.PlayerList) != len(tc.list) {
				t.Fatalf("players %+v, want %q", res.PlayerList, tc.list)
			}
			for i, w := range tc.list {
				if res.PlayerList[i].Name != w {
					t.Errorf("player %d %q, want %q", i, res.PlayerList[i].Name, w)
				}
			}
			if len(res.Rules) != len(res.Info) {
				t.Errorf("rules %v", res.Rules)
			}
		})
	}
}

func TestResultSelection(t *testing.T) {
	st, err := decodeFull(vector(t, "full_vanilla"))
	if err != nil {
		t.Fatal(err)
	}
	res := st.result(false, false)
	if res.PlayerList != nil || res.Rules != nil || len(res.Info) != 10 {
		t.Errorf("players %v rules %v info %d", res.PlayerList, res.Rules, len(res.Info))
	}
}

func TestStripColours(t *testing.T) {
	for in, want := range map[string]string{"": "", "plain": "plain", "§4red§r": "red", "end§": "end", "§§x": "x", "a§kb": "ab"} {
		if got := mctext.StripCodes(in); got != want {
			t.Errorf("mctext.StripCodes(%q) = %q, want %q", in, got, want)
		}
	}
}
