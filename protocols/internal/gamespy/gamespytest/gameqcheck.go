package gamespytest

import (
	"strconv"
	"strings"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
)

// Reading is how one protocol's Result reads GameQ's decoded values: which of
// GameQ's keys hold each field (the first present wins) and how its strings
// become the decoder's.
type Reading struct {
	Name          func(string) string // hostname and player names (nil: as sent)
	Value         func(string) string // Info values (nil: as sent)
	Map           string              // "" is mapname
	Game, Version []string
	// Password reads GameQ's password; nil leaves the flag unchecked.
	Password func(string) protocols.Flag
	// SkipInfo leaves GameQ's key k (with the value the Result's Info has, if
	// any) uncompared; gq_* keys are never compared.
	SkipInfo func(k string, sent bool) bool
	Player   []string // a row's name keys; nil is "player"
	Score    []string // a row's score keys
	Teams    string   // key of a team's name in GameQ's teams, "" for no teams
	TeamBase int      // the index of the first team (0 or 1)
	Bot      bool     // rows say AIBot
	// CapRows cuts GameQ's rows to numplayers (GameQ keeps stale ones).
	CapRows bool
}

// first is the first of m's keys with a value.
func first(m map[string]any, keys []string) string {
	for _, k := range keys {
		if s := Str(m, k); s != "" {
			return s
		}
	}
	return ""
}

func orSame(f func(string) string, s string) string {
	if f == nil {
		return s
	}
	return f(s)
}

// CheckGameQ compares res with GameQ's values want, read as r says.
func CheckGameQ(t *testing.T, res *protocols.Result, want map[string]any, r Reading) {
	t.Helper()
	mapKey := r.Map
	if mapKey == "" {
		mapKey = "mapname"
	}
	head := [][2]string{
		{res.Name, orSame(r.Name, Str(want, "hostname"))}, {res.Map, Str(want, mapKey)},
		{res.Game, first(want, r.Game)}, {res.Version, first(want, r.Version)},
	}
	for i, f := range head {
		if f[0] != f[1] {
			t.Errorf("%s %q, want %q", [...]string{"name", "map", "game", "version"}[i], f[0], f[1])
		}
	}
	if res.Players != Count(Str(want, "numplayers")) || res.MaxPlayers != Count(Str(want, "maxplayers")) {
		t.Errorf("players %v/%v, want %s/%s", res.Players, res.MaxPlayers, Str(want, "numplayers"), Str(want, "maxplayers"))
	}
	if r.Password != nil {
		if w := r.Password(Str(want, "password")); res.Password != w {
			t.Errorf("password %v, want %v", res.Password, w)
		}
	}
	// Every wire key GameQ reports (strings) is in Info with the same value.
	for k, v := range want {
		s, ok := v.(string)
		if !ok || strings.HasPrefix(k, "gq_") {
			continue
		}
		got, sent := Info(res, k)
		if r.SkipInfo != nil && r.SkipInfo(k, sent) {
			continue
		}
		if s = orSame(r.Value, s); !sent || got != s {
			t.Errorf("info %s = %q (%v), want %q", k, got, sent, s)
		}
	}
	checkGameQRows(t, res, want, r)
}

func checkGameQRows(t *testing.T, res *protocols.Result, want map[string]any, r Reading) {
	t.Helper()
	players, _ := want["players"].([]any)
	if np := Count(Str(want, "numplayers")); r.CapRows && np.Known && int(np.Value) < len(players) {
		players = players[:np.Value]
	}
	var teams []string
	if ts, ok := want["teams"].([]any); ok && r.Teams != "" {
		for _, tm := range ts {
			teams = append(teams, Str(tm.(map[string]any), r.Teams))
		}
	}
	nameKeys := r.Player
	if nameKeys == nil {
		nameKeys = []string{"player"}
	}
	rows := make([]Row, len(players))
	for i, p := range players {
		w := p.(map[string]any)
		team := Str(w, "team")
		if n, err := strconv.Atoi(team); err == nil && n >= r.TeamBase && n-r.TeamBase < len(teams) {
			team = teams[n-r.TeamBase]
		}
		rows[i] = Row{
			Name: orSame(r.Name, first(w, nameKeys)), Score: Count(first(w, r.Score)),
			Ping: Count(Str(w, "ping")), Team: team, Bot: r.Bot && Str(w, "AIBot") == "1",
		}
	}
	CheckRows(t, res.PlayerList, rows)
}
