package prototest

import (
	"bytes"
	"testing"
)

func TestParseHex(t *testing.T) {
	got, err := ParseHex("ff ff ffff # header\n\"ab\" 00\t49  # text, tab\n\n")
	want := []byte{0xff, 0xff, 0xff, 0xff, 'a', 'b', 0, 0x49}
	if err != nil || !bytes.Equal(got, want) {
		t.Errorf("ParseHex = % x, %v; want % x", got, err, want)
	}
	for _, bad := range []string{"zz", "\"open", "f"} {
		if _, err := ParseHex(bad); err == nil {
			t.Errorf("ParseHex(%q) succeeded", bad)
		}
	}
}
