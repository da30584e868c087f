package prototest

import (
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
)

// QueryEncodings queries addr with a module of p for each `encoding:` want
// names ("": no options block), players and rules on, and wants the result's
// strings, "name|info[infoKey]|rules[ruleKey]|player/team|...", to be want's
// value: the same bytes read in each code page.
func QueryEncodings(t *testing.T, p protocols.Protocol, addr netip.AddrPort, infoKey, ruleKey string, want map[string]string) {
	t.Helper()
	for enc, w := range want {
		s := protocols.Settings{Players: true, Rules: true}
		if enc != "" {
			s.Options = OptionsYAML("encoding: " + enc)
		}
		res, _ := QueryOK(t, p, addr, s, 2*time.Second)
		info, _ := protocols.Lookup(res.Info, infoKey)
		rule, _ := protocols.Lookup(res.Rules, ruleKey)
		got := []string{res.Name, info, rule}
		for _, pl := range res.PlayerList {
			got = append(got, pl.Name+"/"+pl.Team)
		}
		if g := strings.Join(got, "|"); g != w {
			t.Errorf("%s, encoding %q: %s, want %s", p.Name, enc, g, w)
		}
	}
}
