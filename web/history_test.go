package web

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/collector"
	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// TestHistory: successes and failures have rings of their own; List interleaves
// them newest first; Get finds only what is still kept.
func TestHistory(t *testing.T) {
	failed := &collector.Outcome{Err: errors.New("x")}
	for _, tt := range []struct {
		limit int
		adds  string // s: a success, f: a failure, in order; ids count from 1
		want  []int64
	}{
		{limit: 3, adds: "", want: []int64{}},
		{limit: 3, adds: "ss", want: []int64{2, 1}},
		{limit: 3, adds: "sssss", want: []int64{5, 4, 3}},
		{limit: 2, adds: "fsssssf", want: []int64{7, 6, 5, 1}},
		{limit: 2, adds: "sfsfsfsf", want: []int64{8, 7, 6, 5}},
		{limit: 1, adds: "ffs", want: []int64{3, 2}},
		{limit: 0, adds: "sf", want: []int64{}},
	} {
		h := NewHistory(tt.limit)
		for _, c := range tt.adds {
			o := &collector.Outcome{}
			if c == 'f' {
				o = failed
			}
			h.Add(named("m", "t", o))
		}
		got := []int64{}
		for _, e := range h.List() {
			got = append(got, e.ID)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("limit %d, adds %q: List = %v, want %v", tt.limit, tt.adds, got, tt.want)
		}
		for id := int64(1); id <= int64(len(tt.adds)); id++ {
			o := h.Get(id)
			if kept := slices.Contains(tt.want, id); (o != nil) != kept || (o != nil && o.Success() != (tt.adds[id-1] == 's')) {
				t.Errorf("limit %d, adds %q: Get(%d) = %v, kept %v", tt.limit, tt.adds, id, o, kept)
			}
		}
	}
}

// TestHistoryCapsStrings: the history keeps a copy of at most keptText bytes of
// each string a server sent, cut on a rune boundary: what 250 probes with 250 KB
// names leave on the heap is small (hostile round, row 5: 24 MiB for good).
func TestHistoryCapsStrings(t *testing.T) {
	h := NewHistory(250)
	before := prototest.HeapAfterGC()
	var o *collector.Outcome
	for i := range 250 {
		long := strings.Repeat("é", 125_000) // 250 KB, two bytes a rune
		o = &collector.Outcome{Result: &protocols.Result{Name: long, Map: long, Game: long, Version: long,
			Rules:      []protocols.KV{{Key: long, Value: long}},
			Info:       []protocols.KV{{Key: "k", Value: long}},
			PlayerList: []protocols.Player{{Name: long}},
		}}
		h.Add(named("m", fmt.Sprint("t", i), o))
	}
	if grown := int64(prototest.HeapAfterGC()) - int64(before); grown > 4<<20 {
		t.Errorf("250 kept probes hold %d KiB, want under 4 MiB (the names are 250 KB each)", grown>>10)
	}
	long := o.Result.Name
	r := h.Get(250).Result
	for what, s := range map[string]string{"name": r.Name, "map": r.Map, "game": r.Game, "version": r.Version,
		"rule key": r.Rules[0].Key, "rule value": r.Rules[0].Value, "info value": r.Info[0].Value, "player": r.PlayerList[0].Name} {
		if len(s) > keptText || len(s) < keptText-1 || !strings.HasPrefix(long, s) {
			t.Errorf("%s kept as %d bytes, want the first %d (on a rune boundary)", what, len(s), keptText)
		}
	}
	if len(long) != 250_000 {
		t.Error("the probe's own result was changed")
	}
}

func TestHistoryKeepsSummary(t *testing.T) {
	res := &protocols.Result{Name: "big", Players: protocols.Known(4096)}
	for i := range 4096 {
		res.PlayerList = append(res.PlayerList, protocols.Player{Name: strings.Repeat("n", 64) + fmt.Sprint(i)})
	}
	for i := range 500 {
		res.Rules = append(res.Rules, protocols.KV{Key: fmt.Sprint("k", i), Value: "v"})
	}
	h := newTestHandler(t, &prototest.FakeQuerier{Result: res}, nil)
	_, body := get(t, h, "/probe?module=fake&target=127.0.0.1", nil)
	if !strings.Contains(body, "gameserver_players 4096") {
		t.Fatalf("the probe's own answer must be whole:\n%.300s", body)
	}
	e := h.History.List()[0]
	r := e.Outcome.Result
	if len(r.PlayerList) != keptPlayers || len(r.Rules) != keptRules || r.Name != "big" || r.Players.Value != 4096 {
		t.Errorf("history keeps %d players, %d rules (%q, %d)", len(r.PlayerList), len(r.Rules), r.Name, r.Players.Value)
	}
	if len(res.PlayerList) != 4096 {
		t.Error("summarising changed the probe's own result")
	}
	if _, logs := get(t, h.History.DebugHandler(false), fmt.Sprintf("/logs?id=%d", e.ID), nil); !strings.Contains(logs, "keeps 32 of 4096 players") {
		t.Errorf("debug output of a kept probe must say it was cut:\n%.500s", logs)
	}
}
