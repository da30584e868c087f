package steam

import (
	"strconv"
	"strings"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

// TestRecode: a Cyrillic GoldSrc server's Windows-1251 strings read as such once
// the module names the code page; without it they are Windows-1252.
func TestRecode(t *testing.T) {
	cp1251 := string([]byte{0xCF, 0xF0, 0xE8, 0xE2, 0xE5, 0xF2}) // "Привет"
	newInfo := func() *Info {
		return &Info{Type: TypeInfo, Name: cp1251, Map: "de_dust2", Game: string(prototest.MafiaName), Mod: &ModInfo{Link: cp1251}}
	}
	if res := newInfo().Result(); res.Name != "Ïðèâåò" || res.Game != prototest.MafiaNameText {
		t.Errorf("default: %q %q", res.Name, res.Game)
	}
	in := newInfo()
	in.Recode(wire.Windows1251)
	if res := in.Result(); res.Name != "Привет" || res.Map != "de_dust2" || res.Game != prototest.MafiaNameAs["windows-1251"] || in.Mod.Link != "Привет" {
		t.Errorf("windows-1251: %q %q %q %q", res.Name, res.Map, res.Game, in.Mod.Link)
	}
	pl := &Players{List: []Player{{Name: cp1251}, {Name: "Bot"}}}
	pl.Recode(wire.Windows1251)
	if got := pl.Result(0); got[0].Name != "Привет" || got[1].Name != "Bot" {
		t.Errorf("players %+v", got)
	}
	kv := []protocols.KV{{Key: "sv_" + cp1251, Value: cp1251}}
	RecodeKV(wire.Windows1251, kv)
	if kv[0] != (protocols.KV{Key: "sv_Привет", Value: "Привет"}) {
		t.Errorf("rules %+v", kv)
	}
}

// TestTextFor: the options block's encoding: gives the decoder, none for the
// default; an unknown code page is refused.
func TestTextFor(t *testing.T) {
	for enc, want := range map[string]bool{"": false, "auto": false, "windows-1251": true} {
		text, err := TextFor("a2s", protocols.Settings{Options: prototest.OptionsYAML("encoding: " + strconv.Quote(enc))})
		if err != nil || (text != nil) != want {
			t.Errorf("%q: decoder %v, %v", enc, text != nil, err)
		}
	}
	if _, err := TextFor("a2s", protocols.Settings{Options: prototest.OptionsYAML("encoding: koi8-r")}); err == nil || !strings.HasPrefix(err.Error(), "a2s options: ") {
		t.Errorf("koi8-r: %v", err)
	}
}
