package web

import (
	"errors"
	"slices"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/collector"
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
