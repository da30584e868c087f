package steam

import (
	"strings"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

func TestModuleFor(t *testing.T) {
	off := false
	m, err := ModuleFor("a2s", protocols.Settings{Players: true, Retries: -1,
		Options: prototest.OptionsOf(CacheOptions{ChallengeCache: &off, Encoding: prototest.CodePage(t, "windows-1251")})})
	if err != nil || !m.Players || m.Rules || m.Retries != 0 || m.Challenges != nil || m.Text == nil {
		t.Errorf("%+v, %v", m, err)
	}
	if m, err := ModuleFor("a2s", protocols.Settings{}); err != nil || m.Challenges == nil || m.Text != nil {
		t.Errorf("defaults: %+v, %v (want a cache and the default text)", m, err)
	}
	if _, err := ModuleFor("a2s", protocols.Settings{Options: prototest.OptionsYAML("encoding: koi8-r")}); err == nil || !strings.HasPrefix(err.Error(), "a2s options: ") {
		t.Errorf("unknown encoding: %v", err)
	}
}

func TestExchangerOpen(t *testing.T) {
	addr := prototest.Silent(t)
	m := Module{Retries: 2, Challenges: NewChallengeCache()}
	var x Exchanger
	if err := x.Open(prototest.Context(t, 10*time.Second), protocols.At(addr), nil, &m); err != nil {
		t.Fatal(err)
	}
	defer x.Conn.Close()
	if x.Retries != 2 || x.Cache != m.Challenges || x.Addr != addr {
		t.Errorf("exchanger %+v", x)
	}
}
