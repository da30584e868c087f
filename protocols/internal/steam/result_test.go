package steam

import (
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

func TestRustTags(t *testing.T) {
	tests := []struct {
		kw         string
		cp, mp, qp int64
		modded     bool
	}{
		{"mp125,cp93,v1344", 93, 125, -1, false},
		{" cp1, mp2 ,qp3,modded", 1, -1, 3, true}, // "mp2 " has a trailing space: not a count
		{"cp,mpx,cp_dustbowl,qp99999999999", -1, -1, -1, false},
		{"", -1, -1, -1, false},
	}
	for _, tt := range tests {
		cp, mp, qp, modded := rustTags(tt.kw)
		if cp != tt.cp || mp != tt.mp || qp != tt.qp || modded != tt.modded {
			t.Errorf("rustTags(%q) = %d %d %d %v", tt.kw, cp, mp, qp, modded)
		}
	}
}

func TestDayZQueueTags(t *testing.T) {
	tests := []struct {
		kw   string
		want int64
	}{
		{"", -1},
		{"lqs0", 0},
		{"battleye,no3rd,lqs12,etm4.000000", 12},
		{"battleye, lqs3", 3},
		{"lqs", -1},
		{"lqsx,lqs-1,lqs99999999999", -1},
		{"xlqs5,lqs 5", -1},
		{"18:27,lqs4294967295", 4294967295},
	}
	for _, tt := range tests {
		if got := dayzQueue(tt.kw); got != tt.want {
			t.Errorf("dayzQueue(%q) = %d, want %d", tt.kw, got, tt.want)
		}
	}
}

// TestText: valid UTF-8 (Source) as is; anything else is the Windows code page
// a GoldSrc server's clients typed, 0x80-0x9F marks included.
func TestText(t *testing.T) {
	for in, want := range map[string]string{
		"Über „Server“":             "Über „Server“",
		string(prototest.MafiaName): prototest.MafiaNameText,
		string(prototest.Marks1252): prototest.Marks1252Text,
		"plain":                     "plain",
	} {
		if got := Text(in); got != want {
			t.Errorf("Text(%q) = %q, want %q", in, got, want)
		}
	}
}
