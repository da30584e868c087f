package idtech

import (
	"errors"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/protocols"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/wire"
)

func TestQ3Request(t *testing.T) {
	if got := string(Q3Request("getstatus", "abc", "\n")); got != "\xFF\xFF\xFF\xFFgetstatus abc\n" {
		t.Errorf("ioquake3's: %q", got)
	}
	if got := string(Q3Request("getinfo", "abc", "")); got != "\xFF\xFF\xFF\xFFgetinfo abc" {
		t.Errorf("DarkPlaces': %q", got)
	}
}

func TestEchoed(t *testing.T) {
	if err := Echoed("abc", true, "abc"); err != nil {
		t.Errorf("the same token: %v", err)
	}
	if err := Echoed("", false, "abc"); err != nil {
		t.Errorf("no key (an engine that drops the echo): %v", err)
	}
	if err := Echoed("xyz", true, "abc"); !errors.Is(err, wire.ErrMismatch) {
		t.Errorf("another token: %v, want ErrMismatch", err)
	}
}

func TestNeedPass(t *testing.T) {
	for _, tc := range []struct {
		line         string
		absent, want protocols.Flag
	}{
		{`\hostname\x`, protocols.FlagUnknown, protocols.FlagUnknown},
		{`\hostname\x`, protocols.FlagFalse, protocols.FlagFalse},
		{`\needpass\1`, protocols.FlagFalse, protocols.FlagTrue},
		{`\needpass\2`, protocols.FlagFalse, protocols.FlagFalse}, // a spectator password only
		{`\needpass\ 3 `, protocols.FlagUnknown, protocols.FlagTrue},
		{`\needpass\yes`, protocols.FlagFalse, protocols.FlagUnknown},
	} {
		in, _ := ParseInfo([]byte(tc.line), CaseSensitive, wire.Latin1)
		if got := in.NeedPass(tc.absent); got != tc.want {
			t.Errorf("%s (absent %v): %v, want %v", tc.line, tc.absent, got, tc.want)
		}
	}
}
