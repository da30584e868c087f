package gamespy4

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/internal/gamespy"
	gt "github.com/gameserver-exporter/gameserver_exporter/protocols/internal/gamespy/gamespytest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// The Minecraft Query captures live with the other GameSpy v3/v4 ones; the
// minecraft fixture folder holds only Server List Ping captures (checked below).
const fixtureProto = "gamespy3"

func decodeFixture(t *testing.T, e gt.GameQ) *protocols.Result {
	t.Helper()
	st, err := decodeFull(e.Parts[0])
	if err != nil {
		t.Fatal(err)
	}
	return st.result(true, true)
}

// TestDecodeMcstatusFixtures decodes the mcstatus test arrays (session and padding
// zeroed in three of them; GeyserMC's own padding and key order in the fourth; MOTDs
// holding NUL bytes) and asserts the tests' values.
func TestDecodeMcstatusFixtures(t *testing.T) {
	prototest.FixtureDir(t, fixtureProto)
	t.Run("vanilla_1.8", func(t *testing.T) {
		e := gt.ReadGameQ(t, fixtureProto, "mcstatus_query_fullstat_vanilla_1.8")
		res := decodeFixture(t, e)
		raw := map[string]string{}
		for k, v := range e.Want["raw"].(map[string]any) {
			raw[k] = v.(string)
		}
		if info := prototest.InfoOf(res); len(res.Info) != len(raw) || !reflect.DeepEqual(info, raw) {
			t.Errorf("info %q, want %q", info, raw)
		}
		var names []string
		for _, p := range e.Want["players"].([]any) {
			names = append(names, p.(string))
		}
		gt.CheckRows(t, res.PlayerList, rows(names...))
		if res.Name != "A Minecraft Server" || res.Players != protocols.Known(3) || res.MaxPlayers != protocols.Known(20) || res.Map != "world" {
			t.Errorf("result %+v", res)
		}
	})
	t.Run("geyser", func(t *testing.T) {
		e := gt.ReadGameQ(t, fixtureProto, "mcstatus_query_fullstat_geyser")
		res := decodeFixture(t, e)
		var order []string
		for _, kv := range res.Info {
			order = append(order, kv.Key)
		}
		var want []string
		for _, k := range e.Want["raw_key_order"].([]any) {
			want = append(want, k.(string))
		}
		if strings.Join(order, ",") != strings.Join(want, ",") {
			t.Errorf("key order %v, want %v", order, want)
		}
		if res.Name != gt.Str(e.Want, "motd_plain") || res.Version != gt.Str(e.Want, "software.version") ||
			res.Game != gt.Str(e.Want, "raw.game_id") || len(res.PlayerList) != 0 || res.Players != protocols.Known(1) {
			t.Errorf("result %+v", res)
		}
	})
	for _, name := range []string{"motd_with_nul", "motd_2a00"} {
		t.Run(name, func(t *testing.T) {
			e := gt.ReadGameQ(t, fixtureProto, "mcstatus_query_fullstat_"+name)
			res := decodeFixture(t, e)
			if res.Name != gt.Str(e.Want, "motd") || res.Game != gt.Str(e.Want, "raw.game_id") {
				t.Errorf("name %q game %q, want %q %q", res.Name, res.Game, gt.Str(e.Want, "motd"), gt.Str(e.Want, "raw.game_id"))
			}
			for _, k := range []string{"version", "plugins"} {
				if w, ok := e.Want["raw."+k].(string); ok {
					if got, _ := gt.Info(res, k); got != w {
						t.Errorf("%s %q, want %q", k, got, w)
					}
				}
			}
			// The resynchronised MOTD leaves every later pair in place.
			if got, _ := gt.Info(res, "gametype"); got != "SMP" || res.Map != "world" {
				t.Errorf("gametype %q map %q", got, res.Map)
			}
		})
	}
	t.Run("handshake", func(t *testing.T) {
		e := gt.ReadGameQ(t, fixtureProto, "mcstatus_query_handshake_response")
		session, token, _, err := gamespy.ParseChallenge(e.Parts[0])
		want := uint32(e.Want["challenge_int32"].(float64))
		if err != nil || session != [4]byte{} || token != [4]byte{byte(want >> 24), byte(want >> 16), byte(want >> 8), byte(want)} {
			t.Errorf("session %x token %x, %v; want %08x", session, token, err, want)
		}
	})
}

// TestMinecraftFixtureFolder documents why no capture of ../shared/fixtures/minecraft
// is decoded here: they are all Server List Ping (TCP) or legacy ping data, which
// neither the handshake parser nor the stat decoders take for a Query reply.
func TestMinecraftFixtureFolder(t *testing.T) {
	dir := prototest.FixtureDir(t, "minecraft")
	files, _ := filepath.Glob(filepath.Join(dir, "*.bin"))
	if len(files) == 0 {
		t.Fatalf("no captures in %s", dir)
	}
	for _, f := range files {
		base := filepath.Base(f)
		if !strings.HasPrefix(base, "mcstatus_slp_") && !strings.HasPrefix(base, "mcstatus_legacy_") {
			t.Errorf("%s may be a Query capture: decode it here", base)
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, _, err := gamespy.ParseChallenge(b); err == nil {
			t.Errorf("%s reads as a handshake reply", base)
		}
		// A stat reply always has key/values (hostname first).
		if st, err := decodeFull(b); err == nil && len(st.kv) > 0 {
			t.Errorf("%s reads as a full stat reply: %q", base, st.kv)
		}
		if st, err := decodeBasic(b); err == nil {
			t.Errorf("%s reads as a basic stat reply: %q", base, st.kv)
		}
	}
}
