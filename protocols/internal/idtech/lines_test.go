package idtech

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
)

func TestTokenize(t *testing.T) {
	for _, tc := range []struct {
		in   string
		max  int
		want []string
	}{
		{`1 2 "a b" "" x`, 10, []string{"1", "2", "a b", "", "x"}},
		{"  \t1\r\n", 10, []string{"1"}},
		{`"open ended`, 10, []string{"open ended"}},
		{`a"b c`, 10, []string{`a"b`, "c"}},
		{`1 2 3 4 5`, 3, []string{"1", "2", "3"}},
		{"", 3, nil},
	} {
		var got []string
		for _, tok := range Tokenize([]byte(tc.in), tc.max) {
			got = append(got, string(tok))
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("Tokenize(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestParseInt(t *testing.T) {
	for _, tc := range []struct {
		in       string
		want, qw int64
	}{
		{"0", 0, 0},
		{"-12", -12, -12},
		{"+7", 7, 7},
		{"9223372036854775807", math.MaxInt64, math.MaxInt64},
		{"9223372036854775808", math.MaxInt64, math.MaxInt64},
		{"-9223372036854775807", -math.MaxInt64, -math.MaxInt64},
		// The two clamps differ only here.
		{"-9223372036854775808", math.MinInt64, -math.MaxInt64},
		{"-99999999999999999999999", math.MinInt64, -math.MaxInt64},
	} {
		if got, ok := ParseInt([]byte(tc.in)); !ok || got != tc.want {
			t.Errorf("ParseInt(%q) = %d %v, want %d", tc.in, got, ok, tc.want)
		}
		if got, ok := ParseIntQW([]byte(tc.in)); !ok || got != tc.qw {
			t.Errorf("ParseIntQW(%q) = %d %v, want %d", tc.in, got, ok, tc.qw)
		}
	}
	for _, in := range []string{"", "-", "1x", " 1", "0x10", "1 ", "--1"} {
		if _, ok := ParseInt([]byte(in)); ok {
			t.Errorf("ParseInt(%q) accepted", in)
		}
		if _, ok := ParseIntQW([]byte(in)); ok {
			t.Errorf("ParseIntQW(%q) accepted", in)
		}
	}
}

func TestSplitQuoted(t *testing.T) {
	for _, tc := range []struct {
		in                  string
		before, name, after string
		ok                  bool
	}{
		{`12 48 "name" 1`, "12 48 ", "name", " 1", true},
		{`0 "a "quoted" name"`, "0 ", `a "quoted" name`, "", true},
		{`""`, "", "", "", true},
		{`1 2 "cut`, "", "", "", false},
		{`1 2 3`, "", "", "", false},
	} {
		b, n, a, ok := SplitQuoted([]byte(tc.in))
		if string(b) != tc.before || string(n) != tc.name || string(a) != tc.after || ok != tc.ok {
			t.Errorf("SplitQuoted(%q) = %q %q %q %v, want %+v", tc.in, b, n, a, ok, tc)
		}
	}
}

func TestParseLines(t *testing.T) {
	// parse takes lines that start with a digit.
	parse := func(line []byte) (string, bool) { return string(line), line[0] >= '0' && line[0] <= '9' }
	many := strings.Repeat("1 x\n", MaxPlayerLines+5) + "junk\n"
	for _, tc := range []struct {
		name              string
		in                string
		players           []string
		unparsed, dropped int
		nilPlayers        bool
	}{
		{name: "empty", in: "", nilPlayers: true},
		{name: "blank lines only", in: "\n \r\n\t\n", players: []string{}},
		{name: "trimmed, last without newline", in: " 1 a \r\nx\n\n2 b", players: []string{"1 a", "2 b"}, unparsed: 1},
		{name: "cap", in: many, players: slices.Repeat([]string{"1 x"}, MaxPlayerLines), dropped: 6},
		{name: "unparsed lines count towards the cap", in: "x\n" + many, players: slices.Repeat([]string{"1 x"}, MaxPlayerLines-1), unparsed: 1, dropped: 7},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := ParseLines([]byte(tc.in), parse)
			if (l.Players == nil) != tc.nilPlayers || !slices.Equal(l.Players, tc.players) || l.Unparsed != tc.unparsed || l.Dropped != tc.dropped {
				t.Errorf("got %d players %q, %d unparsed, %d dropped; want %+v", len(l.Players), fmt.Sprint(l.Players), l.Unparsed, l.Dropped, tc)
			}
		})
	}
}
