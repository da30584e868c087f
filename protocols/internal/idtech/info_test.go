package idtech

import (
	"fmt"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

func TestParseInfo(t *testing.T) {
	for _, tc := range []struct {
		name    string
		in      string
		fold    Fold
		pairs   string // fmt of Pairs
		noSlash bool
	}{
		{name: "plain", in: `\a\1\b\2`, pairs: "[{a 1} {b 2}]"},
		{name: "junk before the first backslash", in: `junk\a\1`, pairs: "[{a 1}]"},
		{name: "odd token count", in: `\a\1\b`, pairs: "[{a 1} {b }]"},
		{name: "doubled and trailing backslashes", in: `\a\1\\\b\2\`, pairs: "[{a 1} {b 2}]"},
		{name: "empty value", in: `\a\\b\2`, pairs: "[{a } {b 2}]"},
		{name: "duplicate key, first kept", in: `\a\1\a\2`, pairs: "[{a 1}]"},
		{name: "keys differ in case", in: `\Key\1\key\2`, pairs: "[{Key 1} {key 2}]"},
		{name: "keys differ in case, folded", in: `\Key\1\key\2\KEY\3`, fold: CaseInsensitive, pairs: "[{Key 1}]"},
		{name: "Latin-1", in: "\\h\xe9\\\xff", pairs: "[{h\u00e9 \u00ff}]"},
		{name: "only a backslash", in: `\`, pairs: "[]"},
		{name: "no backslash", in: "hostname x", noSlash: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			info, ok := ParseInfo([]byte(tc.in), tc.fold, wire.Latin1)
			if ok == tc.noSlash {
				t.Fatalf("ok = %v", ok)
			}
			if got := fmt.Sprint(info.Pairs); ok && got != tc.pairs {
				t.Errorf("pairs = %s, want %s", got, tc.pairs)
			}
		})
	}
}

func TestInfoCap(t *testing.T) {
	b := []byte{}
	for i := range MaxInfoPairs + 10 {
		b = fmt.Appendf(b, `\k%d\v`, i)
	}
	b = append(b, `\k0\dup`...) // a duplicate is not counted as dropped
	info, _ := ParseInfo(b, CaseSensitive, wire.Latin1)
	if len(info.Pairs) != MaxInfoPairs || info.PairsDropped != 10 {
		t.Errorf("%d pairs kept, %d dropped", len(info.Pairs), info.PairsDropped)
	}
}

func TestInfoLookups(t *testing.T) {
	in := "\\Max\\ 12 \\neg\\-1\\bad\\x\\name\\\xd2\xe5\xe1\xec\\empty\\"
	for _, fold := range []Fold{CaseSensitive, CaseInsensitive} {
		info, _ := ParseInfo([]byte(in), fold, wire.Latin1)
		// "max" finds "Max" only when keys fold; the first key found wins.
		wantMax := protocols.Count{}
		if fold {
			wantMax = protocols.Known(12)
		}
		for _, tc := range []struct {
			keys []string
			want protocols.Count
		}{
			{[]string{"max"}, wantMax},
			{[]string{"Max"}, protocols.Known(12)},
			{[]string{"missing", "Max"}, protocols.Known(12)},
			{[]string{"neg"}, protocols.Count{}},
			{[]string{"bad"}, protocols.Count{}},
			{[]string{"empty"}, protocols.Count{}},
			{[]string{"missing"}, protocols.Count{}},
		} {
			if got := info.Count(tc.keys...); got != tc.want {
				t.Errorf("fold %v: Count(%q) = %+v, want %+v", fold, tc.keys, got, tc.want)
			}
		}
		if raw, ok := info.Raw("name"); !ok || string(raw) != "\xd2\xe5\xe1\xec" {
			t.Errorf("Raw(name) = %q %v", raw, ok)
		}
		if v, ok := info.Lookup("name"); !ok || v != "\u00d2\u00e5\u00e1\u00ec" {
			t.Errorf("Lookup(name) = %q %v", v, ok)
		}
		if v := info.Text("name"); v != "Real" {
			t.Errorf("Text(name) = %q", v)
		}
		if v, ok := info.Lookup("missing"); ok || v != "" {
			t.Errorf("Lookup(missing) = %q %v", v, ok)
		}
		if v, ok := info.Raw("empty"); !ok || len(v) != 0 {
			t.Errorf("Raw(empty) = %q %v", v, ok)
		}
	}
}

// TestInfoText: the pairs and Lookup read the bytes with ParseInfo's text (a
// module's `encoding:`); Raw and the keys' matching stay on the bytes.
func TestInfoText(t *testing.T) {
	in := []byte("\\sv_hostname\\\xd1\xe5\xf0\xe2\xe5\xf0 \xb91\\\xc8\\\xe3")
	for _, tc := range []struct {
		name string
		text func([]byte) string
		want string
	}{
		{"Latin-1", wire.Latin1, "[{sv_hostname \u00d1\u00e5\u00f0\u00e2\u00e5\u00f0 \u00b91} {\u00c8 \u00e3}]"},
		{"Windows-1251", wire.Windows1251, "[{sv_hostname Сервер №1} {И г}]"},
	} {
		info, _ := ParseInfo(in, CaseInsensitive, tc.text)
		if got := fmt.Sprint(info.Pairs); got != tc.want {
			t.Errorf("%s: pairs %s, want %s", tc.name, got, tc.want)
		}
		if v, ok := info.Lookup("SV_HOSTNAME"); !ok || v != info.Pairs[0].Value {
			t.Errorf("%s: Lookup = %q %v, want %q", tc.name, v, ok, info.Pairs[0].Value)
		}
		if raw, _ := info.Raw("\xc8"); string(raw) != "\xe3" {
			t.Errorf("%s: Raw = %q", tc.name, raw)
		}
	}
	var zero Info
	if v, ok := zero.Lookup("x"); ok || v != "" {
		t.Errorf("zero Info: Lookup = %q %v", v, ok)
	}
}
