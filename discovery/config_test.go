package discovery

import (
	"bytes"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// parse decodes a discovery section strictly, as config.Parse decodes the
// modules file, and compiles it with modules "openarena" and "ddnet" defined.
func parse(t *testing.T, src string) (Config, error) {
	t.Helper()
	var c Config
	dec := yaml.NewDecoder(bytes.NewReader([]byte(src)))
	dec.KnownFields(true)
	if err := dec.Decode(&c); err != nil {
		return nil, err
	}
	return c, c.Compile(func(m string) bool { return m == "openarena" || m == "ddnet" })
}

func TestConfig(t *testing.T) {
	c, err := parse(t, `
community_oa:
  type: quake3
  address: 127.0.0.1:27950
  query: "getservers 71 full empty"
  module: openarena
  refresh: 1m
  max_targets: 50000
  filters: {name: "^MyClan", map: oasago2}
list:
  type: http_json
  url: http://127.0.0.1:8080/servers
  fields: {list: data.servers, address: ip, port: port, name: name, players: players, max: max}
  filters: {not_empty: true}
`)
	if err != nil {
		t.Fatal(err)
	}
	oa := c["community_oa"]
	if oa.lister == nil || oa.nameRE == nil || oa.Refresh.String() != "1m" || oa.Timeout.String() != "30s" {
		t.Fatalf("%+v", oa)
	}
	if l := c["list"]; l.Refresh.String() != "2m" || l.lister == nil {
		t.Fatalf("defaults: %+v", l)
	}
	if err := c.CheckListedIn([]string{"list"}); err != nil {
		t.Fatal(err)
	}
	if err := c.CheckListedIn([]string{"lsit"}); err == nil || !strings.Contains(err.Error(), "known: community_oa, list") {
		t.Fatalf("listed_in of an unknown source: %v", err)
	}
}

func TestConfigErrors(t *testing.T) {
	cases := []struct{ src, want string }{
		{"a: {type: quake3, adress: 127.0.0.1:1}", "field adress not found"},
		{"a: {type: quake3, filters: {nmae: x}}", "field nmae not found"},
		{"a: {type: http_json, url: http://127.0.0.1/, fields: {address: ip, nmae: x}}", "field nmae not found"},
		{"a: {type: quake3, module: nosuch}", `source "a": module "nosuch" is not defined`},
		{"a: {type: quake3, refresh: 1s}", "refresh 1s out of range"},
		{"a: {type: quake3, refresh: 1m, timeout: 2m}", "at most refresh"},
		{"a: {type: quake3, filters: {name: '('}}", "filters: name"},
		{"a: {type: quake3, filters: {not_empty: true}}", "lists no player counts"},
		{"a: {type: quake3, fields: {address: ip}}", "fields are for type http_json only"},
		{"a: {type: gamespy}", `unknown type "gamespy"`},
		{"a: {type: quake3, max_targets: 2000000}", "out of range"},
		{"a/b: {type: quake3}", "source name"},
		{"a:", `source "a" is empty`},
	}
	for _, c := range cases {
		_, err := parse(t, c.src)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.src, err, c.want)
		}
	}
}

func TestFilters(t *testing.T) {
	c, err := parse(t, `
f:
  type: ddnet
  url: http://127.0.0.1/
  filters: {name: "^\\[EU\\]", game: ctf, map: ctf5, not_empty: true}
`)
	if err != nil {
		t.Fatal(err)
	}
	s := c["f"]
	cases := []struct {
		name, game, mapName string
		players             int64
		known, want         bool
	}{
		{"[EU] one", "CTF", "CTF5", 3, true, true},
		{"[EU] empty", "ctf", "ctf5", 0, true, false},
		{"[EU] count unknown", "ctf", "ctf5", 0, false, true},
		{"[US] two", "ctf", "ctf5", 3, true, false},
		{"[EU] dm", "dm", "ctf5", 3, true, false},
		{"[EU] other map", "ctf", "ctf2", 3, true, false},
	}
	for _, c := range cases {
		if got := s.keep(c.name, c.game, c.mapName, c.players, c.known); got != c.want {
			t.Errorf("%+v: keep %v", c, got)
		}
	}
}
