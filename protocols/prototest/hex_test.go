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

func TestParseVec(t *testing.T) {
	got, err := ParseVec("45 59 # EYE\n\"a\\x00\\\"\" L\"mta\"")
	want := []byte{0x45, 0x59, 'a', 0, '"', 4, 'm', 't', 'a'}
	if err != nil || !bytes.Equal(got, want) {
		t.Errorf("ParseVec = % x, %v; want % x", got, err, want)
	}
	for _, bad := range []string{"z1", "\"open", "4"} {
		if _, err := ParseVec(bad); err == nil {
			t.Errorf("ParseVec(%q) succeeded", bad)
		}
	}
}
